import Geodesy
import Simulation
import Testing

@testable import Receiver

/// The F9P's rover engine on values: what corrections received at given times make of a fix at
/// a later time (DGNSS, float, fixed, and back as they age), what it needs from the station, and
/// how the baseline and the shared satellites slow or stop it.
@Suite struct RTKRoverTests {
  static let start = UTCInstant(year: 2026, month: 1, day: 1, hour: 12)
  /// The rover, 50 m above the ellipsoid (geoid separation 0 in these fixes).
  static let place = GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 50)
  static let gpsUsed = Set(1...8)

  /// The rover's fix at `seconds` after the start: GPS 1–8 and GLONASS 1–4 used, 3D.
  static func fix(at seconds: Double, place: GeodeticPosition = place) -> Fix {
    let satellites =
      gpsUsed.sorted().map {
        SatelliteInView(
          constellation: .gps, id: $0, elevation: 20 + Double($0) * 8, azimuth: Double($0) * 45,
          snr: 40, isUsed: true)
      }
      + (1...4).map {
        SatelliteInView(
          constellation: .glonass, id: $0, elevation: 30, azimuth: Double($0) * 90, snr: 38,
          isUsed: true)
      }
    return Fix(
      time: time(seconds), mode: .threeDimensional, position: place, geoidSeparationMeters: 0,
      speedMetersPerSecond: 0, courseDegrees: 0, satellites: satellites,
      dop: DilutionOfPrecision(directions: satellites.map { ($0.azimuth, $0.elevation) }))
  }

  static func time(_ seconds: Double) -> UTCInstant {
    start.adding(nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  /// A station's observations of `system` at epoch `time` (its MSM epoch time).
  static func observations(
    _ id: Int, _ system: Constellation, _ satellites: Set<Int>, at time: UTCInstant
  ) -> CorrectionInput {
    .observations(
      stationID: id, system: system, satellites: satellites,
      epochTime: CorrectionInput.epochTime(of: time, system: system))
  }

  /// The station `northMeters` north of the rover, at its height.
  static func station(id: Int = 7, northMeters: Double = 100) -> CorrectionInput {
    let meters = 111_200.0  // a degree of latitude, near enough for the offset
    let place = GeodeticPosition(
      known: Self.place.latitude + northMeters / meters, Self.place.longitude, altitudeMeters: 50)
    return .station(stationID: id, position: EarthCenteredPosition(place))
  }

  /// A rover fed by one station every second from `from` up to `until` seconds (exclusive):
  /// its position once, then GPS observations of `gps` and GLONASS observations of 1–4 each
  /// second, with GLONASS biases when `biases`.
  static func rover(
    from: Int = 0, until: Int, station: CorrectionInput = station(), gps: Set<Int> = gpsUsed,
    biases: Bool = true, settings: RTKSettings = RTKSettings(),
    convergence: RTKConvergence = RTKConvergence(floatSeconds: 4, fixedSeconds: 10, seed: 1)
  ) -> RTKRover {
    var rover = RTKRover(settings: settings, convergence: convergence)
    guard case .station(let id, _) = station else { return rover }
    rover.receive(station, at: time(Double(from)))
    for second in from..<until {
      let at = time(Double(second))
      rover.receive(Self.observations(id, .gps, gps, at: at), at: at)
      rover.receive(
        Self.observations(id, .glonass, [1, 2, 3, 4], at: at), at: at)
      if biases { rover.receive(.glonassBiases(stationID: id), at: at) }
    }
    return rover
  }

  /// The correction level of the fix at each of `seconds`, corrections flowing until `until`.
  static func levels(
    _ rover: (Int) -> RTKRover, at seconds: [Double]
  ) -> [Fix.Correction] {
    seconds.map { second in
      rover(Int(second.rounded(.up))).solution(for: fix(at: second)).correction
    }
  }

  @Test func theSolutionGoesDGNSSThenFloatThenFixedWithinTheDrawnTimes() {
    // Means 4 s and 10 s, each drawn from half to one and a half times: float from 2–6 s,
    // fixed from 7–21 s after the first corrections.
    let levels = Self.levels({ Self.rover(until: $0 + 1) }, at: [0, 1.9, 6.1, 6.9, 21.1, 60])
    #expect(levels == [.differential, .differential, .rtkFloat, .rtkFloat, .rtkFixed, .rtkFixed])
    // The draws of one seed are the same every time; another seed draws other times.
    let times = (0..<30).map { second in
      Self.rover(until: second + 1).solution(for: Self.fix(at: Double(second))).correction
    }
    let again = (0..<30).map { second in
      Self.rover(until: second + 1).solution(for: Self.fix(at: Double(second))).correction
    }
    #expect(times == again)
    let seeds = (1...8).map { seed in
      (0..<30).firstIndex { second in
        Self.rover(
          until: second + 1,
          convergence: RTKConvergence(floatSeconds: 4, fixedSeconds: 10, seed: UInt64(seed))
        ).solution(for: Self.fix(at: Double(second))).correction == .rtkFixed
      }
    }
    #expect(Set(seeds).count > 3, "fixed at \(seeds)")
    #expect(seeds.allSatisfy { ($0 ?? 0) >= 7 && ($0 ?? 99) <= 21 }, "\(seeds)")
  }

  @Test func asCorrectionsAgeFixedFallsToFloatThenToAStandaloneFix() {
    // Corrections for 40 s, then none: fixed until half the timeout (60 s) has passed since
    // the last observations (second 39), float until the whole of it, then standalone.
    let rover = Self.rover(until: 40)
    let level = { (second: Double) in rover.solution(for: Self.fix(at: second)).correction }
    #expect(level(39) == .rtkFixed)
    #expect(level(69) == .rtkFixed)
    #expect(level(69.5) == .rtkFloat)
    #expect(level(99) == .rtkFloat)
    #expect(level(99.5) == .none)
    #expect(rover.solution(for: Self.fix(at: 99.5)).corrections == nil)
    // CFG-NAVSPG-CONSTR_DGNSSTO at 10 s: float after 5 s, standalone after 10 s.
    var short = rover
    short.settings.correctionTimeoutSeconds = 10
    let shortLevel = { (second: Double) in short.solution(for: Self.fix(at: second)).correction }
    #expect(
      [39, 44, 44.5, 49, 49.5].map(shortLevel) == [
        .rtkFixed, .rtkFixed, .rtkFloat, .rtkFloat, .none,
      ])
  }

  @Test func correctionsAfterATimeoutConvergeAgainFromDGNSS() {
    var rover = Self.rover(until: 40)
    // Back at 200 s, long after the timeout: a new run of corrections.
    for second in 200..<203 {
      let at = Self.time(Double(second))
      rover.receive(Self.observations(7, .gps, Self.gpsUsed, at: at), at: at)
    }
    #expect(rover.solution(for: Self.fix(at: 202)).correction == .differential)
    // A short gap (within the timeout) keeps the run: fixed again at once.
    var resumed = Self.rover(until: 40)
    resumed.receive(
      Self.observations(7, .gps, Self.gpsUsed, at: Self.time(75)), at: Self.time(75))
    #expect(resumed.solution(for: Self.fix(at: 75)).correction == .rtkFixed)
  }

  @Test func withoutTheStationOrItsObservationsOrFourSharedSatellitesNothingIsUsed() {
    // Observations only (no 1005): standalone.
    var noStation = RTKRover()
    noStation.receive(
      Self.observations(7, .gps, Self.gpsUsed, at: Self.start), at: Self.start)
    #expect(noStation.solution(for: Self.fix(at: 0)) == Self.fix(at: 0))
    // The station only: standalone.
    var noObservations = RTKRover()
    noObservations.receive(Self.station(), at: Self.start)
    #expect(noObservations.solution(for: Self.fix(at: 0)) == Self.fix(at: 0))
    // Observations of another station than the position's: standalone.
    var mismatch = Self.rover(until: 30, station: Self.station(id: 7))
    mismatch.receive(Self.station(id: 8), at: Self.time(30))
    #expect(mismatch.solution(for: Self.fix(at: 30)).correction == .none)
    // Three GPS satellites shared, no GLONASS observed: too few.
    var few = RTKRover()
    few.receive(Self.station(), at: Self.start)
    few.receive(
      Self.observations(7, .gps, [1, 2, 3, 20], at: Self.start), at: Self.start)
    #expect(few.solution(for: Self.fix(at: 0)).correction == .none)
    // Without a fix there is nothing to correct.
    var lost = Self.fix(at: 30)
    lost.mode = .noFix
    #expect(Self.rover(until: 31).solution(for: lost).correction == .none)
  }

  @Test func fixingNeedsFiveSatellitesAndGLONASSCountsOnlyWithItsBiases() {
    // Four GPS satellites shared and GLONASS without 1230: float for ever.
    let withoutBiases = Self.rover(until: 61, gps: [1, 2, 3, 4], biases: false)
    #expect(withoutBiases.solution(for: Self.fix(at: 60)).correction == .rtkFloat)
    // With 1230 the four GLONASS satellites count: fixed.
    let withBiases = Self.rover(until: 61, gps: [1, 2, 3, 4], biases: true)
    #expect(withBiases.solution(for: Self.fix(at: 60)).correction == .rtkFixed)
    // CFG-NAVHPG-DGNSSMODE 2 (RTK float): never fixed.
    let floatOnly = Self.rover(until: 301, settings: RTKSettings(fixesAmbiguities: false))
    #expect(floatOnly.solution(for: Self.fix(at: 300)).correction == .rtkFloat)
  }

  @Test func aLongBaselineConvergesSlowerAndBeyond40KilometersNeverFixes() throws {
    let near = try #require(
      (0..<400).first { second in
        Self.rover(until: second + 1).solution(for: Self.fix(at: Double(second))).correction
          == .rtkFixed
      })
    // 25 km: fixed takes 1 + 2.5² = 7.25 times as long (the same draws: same seed and start).
    let far = try #require(
      (0..<400).first { second in
        Self.rover(until: second + 1, station: Self.station(northMeters: 25_000))
          .solution(for: Self.fix(at: Double(second))).correction == .rtkFixed
      })
    #expect(far > near * 4, "fixed after \(near) s at 100 m, \(far) s at 25 km")
    let tooFar = Self.rover(until: 1000, station: Self.station(northMeters: 45_000))
    #expect(tooFar.solution(for: Self.fix(at: 999)).correction == .rtkFloat)
  }

  @Test func theCorrectionUseGivesTheBaselineAgeStationAndAShrinkingRangeError() throws {
    let rover = Self.rover(until: 40)
    let dgnss = try #require(Self.rover(until: 1).solution(for: Self.fix(at: 0)).corrections)
    let fixed = try #require(rover.solution(for: Self.fix(at: 39.5)).corrections)
    let aged = try #require(rover.solution(for: Self.fix(at: 59)).corrections)
    #expect(fixed.stationID == 7)
    #expect(fixed.ageSeconds == 0.5)
    #expect(aged.ageSeconds == 20)
    // The station is 100 m north at the same height: the rover is 100 m south of it.
    #expect(abs(fixed.north + 100) < 0.5, "\(fixed.north)")
    #expect(abs(fixed.east) < 0.01 && abs(fixed.down) < 0.01, "\(fixed.east) \(fixed.down)")
    #expect(abs(fixed.baselineMeters - 100) < 0.5)
    let ppm = 1e-6 * fixed.baselineMeters
    #expect(abs(dgnss.rangeErrorMeters - (0.5 + ppm)) < 1e-12)
    // 8 mm, 1 ppm of the baseline, 0.5 mm a second of age.
    #expect(abs(fixed.rangeErrorMeters - (0.008 + ppm + 0.000_25)) < 1e-12)
    #expect(abs(aged.rangeErrorMeters - (0.008 + ppm + 0.01)) < 1e-12)
  }

  @Test func aResetForgetsEveryCorrection() {
    var rover = Self.rover(until: 40)
    rover.reset()
    #expect(!rover.hasReceived)
    #expect(rover.solution(for: Self.fix(at: 39)).correction == .none)
    #expect(rover.convergence.seed == 1)
  }

  @Test func convergenceStopsWhenTheCorrectionsDo() {
    // One second of corrections, then nothing: DGNSS until they time out, never float (the
    // review found a rover that went fixed on 25 s old data).
    let rover = Self.rover(until: 1)
    let levels = [0.5, 5, 20, 40, 59].map { rover.solution(for: Self.fix(at: $0)).correction }
    #expect(levels == Array(repeating: .differential, count: 5), "\(levels)")
    // A gap within the timeout does not count as convergence: 5 s of corrections, 20 s of
    // nothing, then more: still DGNSS after the gap (float needs at least 2 s flowing, fixed
    // 7 s), and the run goes on from where it was.
    var gapped = Self.rover(until: 2)
    #expect(gapped.solution(for: Self.fix(at: 22)).correction == .differential)
    for second in 22..<40 {
      let at = Self.time(Double(second))
      gapped.receive(Self.observations(7, .gps, Self.gpsUsed, at: at), at: at)
      gapped.receive(Self.observations(7, .glonass, [1, 2, 3, 4], at: at), at: at)
    }
    #expect(gapped.solution(for: Self.fix(at: 39.5)).correction == .rtkFixed)
  }

  @Test func observationsAreAgedByTheirEpochAndStaleOrFutureOnesRefused() throws {
    var rover = RTKRover()
    rover.receive(Self.station(), at: Self.start)
    // Observed 3 s before they arrive: 3.5 s old half a second after the arrival.
    let arrival = Self.time(10)
    rover.receive(Self.observations(7, .gps, Self.gpsUsed, at: Self.time(7)), at: arrival)
    let use = try #require(rover.solution(for: Self.fix(at: 10.5)).corrections)
    #expect(use.ageSeconds == 3.5)
    // A replayed stream an hour old, and one 5 s in the future: refused.
    var stale = RTKRover()
    stale.receive(Self.station(), at: Self.start)
    stale.receive(Self.observations(7, .gps, Self.gpsUsed, at: Self.time(-3600)), at: arrival)
    stale.receive(Self.observations(7, .gps, Self.gpsUsed, at: Self.time(15)), at: arrival)
    #expect(stale.solution(for: Self.fix(at: 10.5)).corrections == nil)
  }

  @Test(arguments: [Constellation.gps, .glonass, .galileo, .beidou])
  func anMSMEpochTimeStandsForTheMomentNearestItsArrival(_ system: Constellation) throws {
    // Across a GPS week's end (Saturday 23:59:45 GPS) and a Moscow day's.
    for time in [
      Self.start, UTCInstant(year: 2026, month: 1, day: 3, hour: 23, minute: 59, second: 27),
    ] {
      let field = CorrectionInput.epochTime(of: time, system: system)
      for delay in [0.0, 0.4, 30, -0.8] {
        let arrival = time.adding(nanoseconds: Int64(delay * 1e9))
        let epoch = try #require(CorrectionInput.epoch(of: field, system: system, near: arrival))
        #expect(epoch == time, "\(system) \(time) arriving \(delay) s later: \(epoch)")
      }
    }
    // GLONASS's day 7 (unknown): the time of day nearest the arrival.
    let moscow = CorrectionInput.epochTime(of: Self.start, system: .glonass)
    let unknownDay = 7 << 27 | moscow & (1 << 27 - 1)
    #expect(
      CorrectionInput.epoch(of: unknownDay, system: .glonass, near: Self.time(2)) == Self.start)
    #expect(CorrectionInput.epoch(of: 604_800_000, system: .gps, near: Self.start) == nil)
  }
}
