import Geodesy
import Simulation
import Testing
import UBX

@testable import Receiver

/// A u-blox 9 as a reference station on values: the survey-in's mean converging on the antenna
/// and ending when its duration and accuracy are met, a fixed position, and the CFG-TMODE items
/// (ECEF or LLH) read into the station's settings.
@Suite struct BaseStationTests {
  static let start = UTCInstant(year: 2026, month: 1, day: 1, hour: 12)
  static let antenna = EarthCenteredPosition(
    GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 100))

  static func report(_ station: BaseStation, at seconds: Int) -> BaseStationReport? {
    station.report(
      at: start.adding(nanoseconds: Int64(seconds) * 1_000_000_000), antenna: antenna)
  }

  static func distance(_ a: EarthCenteredPosition, _ b: EarthCenteredPosition) -> Double {
    let (x, y, z) = (a.x - b.x, a.y - b.y, a.z - b.z)
    return (x * x + y * y + z * z).squareRoot()
  }

  @Test func aSurveyInConvergesAndEndsWhenItsDurationAndAccuracyAreMet() throws {
    var station = BaseStation(seed: 3)
    station.configure(
      BaseSettings(mode: .surveyIn(minimumSeconds: 60, accuracyLimitMeters: 2)), at: Self.start)
    // 2 m needs (2.5 / 2)² − 1 = 0.5625 correlation times: 34 s, less than the 60 s minimum.
    let early = try #require(Self.report(station, at: 10))
    #expect(early.isActive && !early.isValid && early.reference == nil)
    #expect(early.surveySeconds == 10 && early.observations == 11)
    #expect(abs(early.meanAccuracyMeters - 2.5 / (1 + 10.0 / 60).squareRoot()) < 1e-12)
    #expect(abs(Self.distance(early.mean, Self.antenna) - early.meanAccuracyMeters) < 1e-6)
    let done = try #require(Self.report(station, at: 60))
    #expect(done.isValid && !done.isActive)
    #expect(done.reference == done.mean)
    // Later the mean stands: the station's position no longer moves.
    let later = try #require(Self.report(station, at: 500))
    #expect(later.surveySeconds == 60 && later.reference == done.reference)
    // A tight limit makes the accuracy the longer wait: 0.5 m after 24 min.
    #expect(BaseStation.surveySeconds(minimumSeconds: 60, accuracyLimitMeters: 0.5) == 1440)
  }

  @Test func aFixedPositionIsTheReferenceFromTheStartAndNoModeReportsNothing() throws {
    var station = BaseStation()
    #expect(Self.report(station, at: 0) == nil)
    let fixed = EarthCenteredPosition(x: 4_201_000, y: 172_000, z: 4_780_000)
    station.configure(
      BaseSettings(mode: .fixed(fixed, accuracyMeters: 0.01), stationID: 12), at: Self.start)
    let report = try #require(Self.report(station, at: 0))
    #expect(report.reference == fixed && !report.isActive && !report.isValid)
  }

  @Test func theTimeModeItemsAreReadAsTheStationsSettings() {
    var f9p = UbloxCommandHandler(profile: .ubloxF9P)
    #expect(f9p.powerUpEffects.contains(.setBase(BaseSettings())))
    let survey = f9p.handle(
      .ubx(
        UbloxConfigurationFrames.valset([
          ("CFG-TMODE-MODE", 1), ("CFG-TMODE-SVIN_MIN_DUR", 120),
          ("CFG-TMODE-SVIN_ACC_LIMIT", 25_000), ("CFG-RTCM-DF003_OUT", 7),
        ])))
    #expect(
      survey.last
        == .setBase(
          BaseSettings(
            mode: .surveyIn(minimumSeconds: 120, accuracyLimitMeters: 2.5), stationID: 7)))
    // Fixed, ECEF: −1 234 567.89 m on X with its 0.1 mm part.
    let ecef = f9p.handle(
      .ubx(
        UbloxConfigurationFrames.valset([
          ("CFG-TMODE-MODE", 2), ("CFG-TMODE-ECEF_X", UInt64(UInt32(bitPattern: -123_456_789))),
          ("CFG-TMODE-ECEF_X_HP", UInt64(UInt8(bitPattern: -5))), ("CFG-TMODE-ECEF_Y", 100),
          ("CFG-TMODE-ECEF_Z", 200),
        ])))
    guard case .setBase(let settings) = ecef.last,
      case .fixed(let position, _) = settings.mode
    else {
      Issue.record("\(ecef)")
      return
    }
    #expect(abs(position.x - -1_234_567.8905) < 1e-9 && position.y == 1 && position.z == 2)
    // `--base`'s items: LLH, read back within a millimetre.
    let place = GeodeticPosition(known: -33.856_784_123, 151.215_297_456, altitudeMeters: 44.321)
    _ = f9p.handle(UbloxCommandHandler.baseStationSetup(place))
    guard case .fixed(let base, _) = f9p.configuredBaseSettings.mode else {
      Issue.record("\(f9p.configuredBaseSettings)")
      return
    }
    #expect(Self.distance(base, EarthCenteredPosition(place)) < 0.001)
    #expect(f9p.rate(of: UBXMessageType.rtcmOutput(1005)!) == 1)
    #expect(f9p.rate(of: UBXMessageType.rtcmOutput(1074)!) == 1)
  }

  @Test func aNewStationIDKeepsTheSurveyAndARestartStartsItOver() throws {
    var station = BaseStation()
    let survey = BaseSettings.Mode.surveyIn(minimumSeconds: 600, accuracyLimitMeters: 1)
    station.configure(BaseSettings(mode: survey, stationID: 1), at: Self.start)
    // CFG-RTCM-DF003_OUT changes 65 s in: the survey goes on.
    station.configure(
      BaseSettings(mode: survey, stationID: 77), at: Self.start.adding(nanoseconds: 65_000_000_000))
    #expect(try #require(Self.report(station, at: 100)).surveySeconds == 100)
    // The chip restarts and has a fix again at 120 s: the survey counts from there.
    station.restart(fixFrom: Self.start.adding(nanoseconds: 120_000_000_000))
    #expect(Self.report(station, at: 119) == nil)
    #expect(try #require(Self.report(station, at: 130)).surveySeconds == 10)
  }
}
