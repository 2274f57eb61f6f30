import GNSSMeasurements
import Geodesy
import MockGPS
import Receiver
import Simulation
import Testing
import UBX

/// A fault that cuts every signal (a tunnel, a cold start) makes the carriers slip: when the
/// satellites come back, RXM-RAWX's lock time starts again from 0 and each carrier's phase has
/// a new whole number of cycles; without a cut the phase keeps its ambiguity.
@Suite struct CycleSlipTests {
  static let start = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)

  /// The F9P at Paris under the sky of seed 7, its signals cut from 10 s to 20 s when `cut`,
  /// its clock `clockOffsetSeconds` off from the start.
  static func source(cut: Bool, clockOffsetSeconds: Int64 = 0) throws -> SceneSource {
    let profile = try #require(ReceiverProfile.named("ublox-f9p"))
    let configuration = EmulatorConfiguration(
      linkPath: EmulatorConfiguration.defaultLinkPath,
      source: .fixed(GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35)),
      profile: profile, sky: SkySettings(seed: 7))
    var source = try configuration.makeEpochSource(simulatedStart: start)
    if cut {
      source.scene.faults.faults.append(
        FixFault(
          .loseSatellites(.all),
          window: FaultWindow(
            from: start.adding(nanoseconds: 10_000_000_000), nanoseconds: 10_000_000_000)))
    }
    if clockOffsetSeconds != 0 {
      source.scene.faults.faults.append(
        FixFault(.clockOffset(nanoseconds: clockOffsetSeconds * 1_000_000_000)))
    }
    return source
  }

  /// The F9P's measurements at `seconds` after `start`, with every signal cut from 10 s to 20 s.
  static func measurements(at seconds: [Int64], cut: Bool) throws -> [[RawMeasurement]] {
    let source = try source(cut: cut)
    let raw = try #require(source.encoder.ubx.rawMeasurements)
    let signals = source.encoder.ubx.measuredSignals
    return seconds.map { second in
      let fix = source.scene.fix(at: start.adding(nanoseconds: second * 1_000_000_000))
      return raw.epoch(for: fix, signals: signals)?.measurements ?? []
    }
  }

  /// Carrier phase less pseudorange, in cycles: the ambiguity plus twice the ionosphere and the
  /// code noise (at most 0.6 m, 3 cycles of 19 cm, a sigma), which change by a few cycles from
  /// one epoch to another; a new ambiguity moves it by up to a million.
  static func phaseLessRange(_ measurements: [RawMeasurement]) -> [String: Double] {
    Dictionary(
      uniqueKeysWithValues: measurements.map {
        (
          "\($0.constellation)\($0.id)/\($0.signal)",
          $0.carrierPhaseCycles - $0.pseudorangeMeters / $0.wavelengthMeters
        )
      })
  }

  @Test func aCutOfEverySignalRestartsTheLockAndChangesEveryAmbiguity() throws {
    let epochs = try Self.measurements(at: [9, 15, 20, 23], cut: true)
    // Tracked since the run's start, 9 s before.
    #expect(!epochs[0].isEmpty && epochs[0].allSatisfy { $0.lockTimeMilliseconds == 9_000 })
    #expect(epochs[1].isEmpty, "no signal in the cut")
    #expect(!epochs[2].isEmpty && epochs[2].allSatisfy { $0.lockTimeMilliseconds == 0 })
    #expect(epochs[3].allSatisfy { $0.lockTimeMilliseconds == 3_000 })
    let before = Self.phaseLessRange(epochs[0])
    let after = Self.phaseLessRange(epochs[3])
    let shared = Set(before.keys).intersection(after.keys)
    #expect(shared.count >= 20, "\(shared.count) signals before and after")
    for key in shared {
      #expect(abs(after[key]! - before[key]!) > 100, "\(key) kept its ambiguity across the cut")
    }
    // The new ambiguities stay from one epoch to the next.
    let next = Self.phaseLessRange(epochs[2])
    for key in shared where next[key] != nil {
      #expect(abs(after[key]! - next[key]!) < 30, "\(key) slipped again")
    }
  }

  @Test func withoutACutThePhaseKeepsItsAmbiguityAndItsLock() throws {
    let epochs = try Self.measurements(at: [9, 23], cut: false)
    #expect(epochs[1].allSatisfy { $0.lockTimeMilliseconds == 23_000 })
    let before = Self.phaseLessRange(epochs[0])
    let after = Self.phaseLessRange(epochs[1])
    let shared = Set(before.keys).intersection(after.keys)
    #expect(shared.count >= 20)
    for key in shared { #expect(abs(after[key]! - before[key]!) < 30, "\(key)") }
  }

  /// A receiver whose clock is ahead (a clock fault) locks again at its own time: lock time 0
  /// when the signals come back (the cold review saw 30,000 ms at +30 s, and at +100 s
  /// 64,500 ms before and after a slip no decoder could see). A clock behind the run's start
  /// is not judged: the run's tracking start is a true time, so lock times stay 0 until the
  /// clock has caught up with it.
  @Test(arguments: [30, 100] as [Int64])
  func theLockTimeCountsOnTheReceiversOwnClock(offset: Int64) throws {
    let source = try Self.source(cut: true, clockOffsetSeconds: offset)
    let raw = try #require(source.encoder.ubx.rawMeasurements)
    let signals = source.encoder.ubx.measuredSignals
    let locks = ([20, 21, 25] as [Int64]).map { second -> Set<Int> in
      let fix = source.scene.fix(at: Self.start.adding(nanoseconds: second * 1_000_000_000))
      return Set(
        raw.epoch(for: fix, signals: signals)?.measurements.map(\.lockTimeMilliseconds) ?? [])
    }
    #expect(locks == [[0], [1_000], [5_000]], "\(locks)")
  }

  /// A base keeps sending its MSMs after an outage: they take out the ambiguities its
  /// measurements carry after the slip (the cold review saw every MSM dropped, a phase range off
  /// by up to 10⁶ cycles failing to encode).
  @Test func aBaseSendsItsMSMsAfterAnOutage() throws {
    let source = try Self.source(cut: true)
    let raw = try #require(source.encoder.ubx.rawMeasurements)
    var output = source.encoder.output
    for number in [1074, 1077, 1084, 1087, 1094, 1097, 1124, 1127] {
      output.ubx[try #require(UBXMessageType.rtcmOutput(number))] = 1
    }
    for second: Int64 in [5, 25, 40] {
      let fix = source.scene.fix(at: Self.start.adding(nanoseconds: second * 1_000_000_000))
      let frames = RTCMOutputEncoder().frames(
        for: fix, output: output, epochIndex: Int(second), measurements: raw,
        signals: source.encoder.ubx.measuredSignals)
      #expect(frames.count == 8, "\(frames.count) MSMs at \(second) s")
    }
  }

  /// A scenario's `outage` is that cut: every satellite lost in its window.
  @Test func aScenarioOutageLosesEverySatellite() {
    let window = FaultWindow(from: Self.start, nanoseconds: 5_000_000_000)
    let faults = Scenario.Action.outage.faults(since: Self.start, window: window, seed: 1)
    #expect(faults.fix == [FixFault(.loseSatellites(.all), window: window)])
    #expect(faults.wire.isEmpty)
  }

  /// A cold start cuts them too: the lock counts from its start, whatever ended before.
  @Test func signalsAreReacquiredAtTheLatestCut() {
    let at = { (seconds: Int64) in Self.start.adding(nanoseconds: seconds * 1_000_000_000) }
    let faults: FixFaults = [
      FixFault(
        .loseSatellites(.all), window: FaultWindow(from: at(10), nanoseconds: 5_000_000_000)),
      FixFault(
        .loseSatellites(.keepUsed(4)), window: FaultWindow(from: at(30), nanoseconds: 5_000_000_000)
      ),
      FixFault(.coldStart(since: at(50), timeToFirstFixNanoseconds: 30_000_000_000)),
    ]
    #expect(faults.signalsReacquired(by: at(5)) == nil)
    #expect(faults.signalsReacquired(by: at(12)) == nil)
    #expect(faults.signalsReacquired(by: at(15)) == at(15))
    #expect(faults.signalsReacquired(by: at(40)) == at(15), "keeping 4 used cuts nothing")
    #expect(faults.signalsReacquired(by: at(50)) == at(50))
    #expect(faults.signalsReacquired(by: at(90)) == at(50))
  }
}
