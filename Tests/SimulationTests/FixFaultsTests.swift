import Geodesy
import Simulation
import Testing

@Suite struct FixFaultsTests {
  static let time = UTCInstant(year: 2026, month: 11, day: 29, hour: 12)
  static let position = GeodeticPosition(known: 51.477928, -0.001545, altitudeMeters: 46)

  static func scene(usedSatellites: Int = 8, faults: FixFaults = .none) -> Scene {
    let all = StaticSky.typicalGPS.satellites
    let sky = StaticSky(satellites: Array(all.prefix(usedSatellites)) + all.suffix(2))
    return Scene(motion: FixedPosition(position), sky: sky, faults: faults)
  }

  @Test func withoutFaultsTheFixIsTheScenes() {
    let scene = Self.scene()
    #expect(scene.faults == .none)
    #expect(scene.fix(at: Self.time) == scene.faultFreeFix(at: Self.time))
    #expect(scene.fix(at: Self.time).mode == .threeDimensional)
  }

  @Test func forcedNoFixKeepsEverySatelliteInView() {
    let fix = Self.scene(faults: [FixFault(.forceMode(.noFix))]).fix(at: Self.time)
    #expect(fix.mode == .noFix)
    #expect(fix.satellites == Self.scene().fix(at: Self.time).satellites)
    #expect(fix.dop == nil)
  }

  struct ModeCase: CustomTestStringConvertible, Sendable {
    let forced: Fix.Mode
    let usedSatellites: Int
    let mode: Fix.Mode
    var testDescription: String { "\(forced) with \(usedSatellites) used → \(mode)" }
  }

  @Test(arguments: [
    ModeCase(forced: .threeDimensional, usedSatellites: 8, mode: .threeDimensional),
    ModeCase(forced: .twoDimensional, usedSatellites: 8, mode: .twoDimensional),
    ModeCase(forced: .noFix, usedSatellites: 8, mode: .noFix),
    ModeCase(forced: .threeDimensional, usedSatellites: 3, mode: .twoDimensional),
    ModeCase(forced: .twoDimensional, usedSatellites: 3, mode: .twoDimensional),
    ModeCase(forced: .threeDimensional, usedSatellites: 2, mode: .noFix),
    ModeCase(forced: .twoDimensional, usedSatellites: 0, mode: .noFix),
  ])
  func aForcedModeIsNeverBetterThanTheSatellitesUsedAllow(_ row: ModeCase) {
    let scene = Self.scene(
      usedSatellites: row.usedSatellites, faults: [FixFault(.forceMode(row.forced))])
    #expect(scene.fix(at: Self.time).mode == row.mode)
  }

  @Test func theWorstOfSeveralForcedModesWins() {
    let faults: FixFaults = [
      FixFault(.forceMode(.twoDimensional)), FixFault(.forceMode(.threeDimensional)),
    ]
    #expect(Self.scene(faults: faults).fix(at: Self.time).mode == .twoDimensional)
  }

  @Test func dopScalingMultipliesEveryDOP() throws {
    let plain = try #require(Self.scene().fix(at: Self.time).dop)
    let faults: FixFaults = [FixFault(.scaleDOP(by: 10)), FixFault(.scaleDOP(by: 2))]
    let scaled = try #require(Self.scene(faults: faults).fix(at: Self.time).dop)
    #expect(abs(scaled.horizontal - plain.horizontal * 20) < 1e-9)
    #expect(abs(scaled.vertical - plain.vertical * 20) < 1e-9)
    #expect(abs(scaled.position - plain.position * 20) < 1e-9)
    #expect(abs(scaled.time - plain.time * 20) < 1e-9)
  }

  @Test func losingEverySatelliteMeansNoFixAndNothingInView() {
    let fix = Self.scene(faults: [FixFault(.loseSatellites(.all))]).fix(at: Self.time)
    #expect(fix.satellites.isEmpty)
    #expect(fix.mode == .noFix)
    #expect(fix.dop == nil)
  }

  @Test func keepingFourUsedSatellitesGivesA3DFixWithTheirDOPs() throws {
    let plain = Self.scene().fix(at: Self.time)
    let fix = Self.scene(faults: [
      FixFault(.loseSatellites(.keepUsed(4))), FixFault(.forceMode(.threeDimensional)),
    ]).fix(at: Self.time)
    #expect(fix.mode == .threeDimensional)
    #expect(fix.satellites.count == plain.satellites.count)
    #expect(fix.satellitesUsed == Array(plain.satellitesUsed.prefix(4)))
    let expected = DilutionOfPrecision(
      directions: fix.satellitesUsed.map { ($0.azimuth, $0.elevation) })
    #expect(fix.dop == expected)
    let worse = try #require(fix.dop).horizontal
    let before = try #require(plain.dop).horizontal
    #expect(worse > before)
  }

  @Test func keepingThreeUsedSatellitesGivesA2DFixWithoutDOPs() {
    let fix = Self.scene(faults: [FixFault(.loseSatellites(.keepUsed(3)))]).fix(at: Self.time)
    #expect(fix.mode == .twoDimensional)
    #expect(fix.satellitesUsed.count == 3)
    #expect(fix.dop == nil)
  }

  @Test func satellitesMarkedUnusedStayInViewAfterTheUsedOnes() {
    let fix = Self.scene(faults: [FixFault(.loseSatellites(.markUnused([2, 9, 26])))])
      .fix(at: Self.time)
    #expect(fix.satellites.count == 10)
    #expect(fix.satellitesUsed.map(\.id) == [5, 7, 13, 16, 20])
    #expect(fix.satellites.prefix(5).allSatisfy { $0.isUsed })
    #expect(!fix.satellites.dropFirst(5).contains { $0.isUsed })
    #expect(fix.mode == .threeDimensional)
  }

  @Test func aJumpMovesThePositionByItsOffsetInMeters() {
    let fix = Self.scene(faults: [
      FixFault(.jump(northMeters: 300, eastMeters: -400, upMeters: 12))
    ]).fix(at: Self.time)
    let line = Geodesic.wgs84.inverse(from: Self.position, to: fix.position)
    #expect(abs(line.distanceMeters - 500) < 0.001)
    // atan2(-400, 300) in degrees, turned into 0..<360.
    #expect(abs(line.initialAzimuthDegrees - 306.869_897_645_844) < 1e-6)
    #expect(fix.position.latitude > Self.position.latitude)
    #expect(fix.position.longitude < Self.position.longitude)
    #expect(fix.position.altitudeMeters == 58)
  }

  @Test func aJumpThatIsNotFiniteLeavesThePositionAlone() {
    let fix = Self.scene(faults: [FixFault(.jump(northMeters: .nan, eastMeters: .infinity))])
      .fix(at: Self.time)
    #expect(fix.position == Self.position)
  }

  @Test func noiseIsTheSameForTheSameSeedAndEpochTime() {
    let scene = Self.scene(faults: [FixFault(.noise(standardDeviationMeters: 5, seed: 99))])
    let other = Self.scene(faults: [FixFault(.noise(standardDeviationMeters: 5, seed: 100))])
    let next = Self.time.adding(nanoseconds: 1_000_000_000)
    #expect(scene.fix(at: Self.time) == scene.fix(at: Self.time))
    #expect(scene.fix(at: Self.time).position != Self.position)
    #expect(scene.fix(at: Self.time).position != scene.fix(at: next).position)
    #expect(scene.fix(at: Self.time).position != other.fix(at: Self.time).position)
  }

  @Test func noiseHasTheStandardDeviationAsked() {
    let scene = Self.scene(faults: [FixFault(.noise(standardDeviationMeters: 5, seed: 1))])
    let offsets = (0..<2000).map { second in
      let fix = scene.fix(at: Self.time.adding(nanoseconds: Int64(second) * 1_000_000_000))
      let north = GeodeticPosition(known: fix.position.latitude, Self.position.longitude)
      let meters = Geodesic.wgs84.inverse(from: Self.position, to: north).distanceMeters
      return fix.position.latitude < Self.position.latitude ? -meters : meters
    }
    let mean = offsets.reduce(0, +) / Double(offsets.count)
    let variance = offsets.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(offsets.count)
    #expect(abs(mean) < 0.5)
    #expect(abs(variance.squareRoot() - 5) < 0.4)
  }

  @Test func faultsApplyOnlyInsideTheirWindow() {
    let until = Self.time.adding(nanoseconds: 3_000_000_000)
    let scene = Self.scene(faults: [
      FixFault(.forceMode(.noFix), window: FaultWindow(from: Self.time, until: until))
    ])
    #expect(scene.fix(at: Self.time.adding(nanoseconds: -1)).mode == .threeDimensional)
    #expect(scene.fix(at: Self.time).mode == .noFix)
    #expect(scene.fix(at: until.adding(nanoseconds: -1)).mode == .noFix)
    #expect(scene.fix(at: until).mode == .threeDimensional)
  }

  @Test func endedFaultsCanBeForgotten() {
    let until = Self.time.adding(nanoseconds: 3_000_000_000)
    var faults: FixFaults = [
      FixFault(.forceMode(.noFix), window: FaultWindow(until: until)), FixFault(.scaleDOP(by: 2)),
    ]
    faults.removeEnded(by: Self.time)
    #expect(faults.faults.count == 2)
    faults.removeEnded(by: until)
    #expect(faults == [FixFault(.scaleDOP(by: 2))])
    #expect(faults.active(at: until).count == 1)
  }
}
