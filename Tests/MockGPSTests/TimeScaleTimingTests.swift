import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Testing

/// `--time-scale` on the manual clock (`EmulatorHarness`): epochs keep their simulated period
/// and leave on the wire as many times as often as simulated time runs faster, at exact virtual
/// times. What the kernel does with the bytes stays with `TimeScaleDeviceTests`.
@Suite(.blocking) struct TimeScaleTimingTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

  /// A harness at `rateHz`, unpaced, with simulated time `timeScale` times the wire's, from
  /// noon on 1 June 2024.
  static func harness(rateHz: Double, timeScale: Double) throws -> EmulatorHarness {
    try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: 0),
        timeScale: timeScale, startTime: start))
  }

  /// The time of day of the RMC of each of the next `count` epochs, and the virtual time of the
  /// wire it went out at.
  static func rmcTimes(_ count: Int, of harness: EmulatorHarness) throws -> [(
    secondsOfDay: Double, wireNanoseconds: Int64
  )] {
    try (0..<count).map { _ in
      let text = String(decoding: try harness.step(), as: UTF8.self)
      let line = try #require(
        text.split(separator: "\r\n").first { $0.dropFirst(3).hasPrefix("RMC") })
      let time = try #require(try RMC(parsing: String(line)).time)
      return (time.secondsOfDay, harness.clock.now().nanoseconds)
    }
  }

  /// A scaled run starts at its start time: the first epoch a client reads is the start, not
  /// the simulated moments before the next whole wire second (found by the review).
  @Test func aScaledRunsFirstEpochIsItsStart() throws {
    let harness = try Self.harness(rateHz: 1, timeScale: 100)
    defer { harness.stop() }
    let first = try #require(try Self.rmcTimes(1, of: harness).first)
    #expect(first.secondsOfDay == 43_200, "\(first)")
  }

  @Test func atTenTimesOneHertzEpochsLeaveEvery100MillisecondsOneSimulatedSecondApart() throws {
    let harness = try Self.harness(rateHz: 1, timeScale: 10)
    defer { harness.stop() }
    let times = try Self.rmcTimes(20, of: harness)
    let simulated = zip(times, times.dropFirst()).map { $1.secondsOfDay - $0.secondsOfDay }
    let wire = zip(times, times.dropFirst()).map { $1.wireNanoseconds - $0.wireNanoseconds }
    #expect(simulated == Array(repeating: 1, count: 19), "\(simulated)")
    #expect(wire == Array(repeating: 100_000_000, count: 19), "\(wire)")
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsLate == 0 && statistics.burstsCut == 0, "\(statistics)")
  }

  @Test func atHalfSpeedTwoHertzLeavesOnceAWireSecondHalfASimulatedSecondApart() throws {
    let harness = try Self.harness(rateHz: 2, timeScale: 0.5)
    defer { harness.stop() }
    let times = try Self.rmcTimes(6, of: harness)
    let simulated = zip(times, times.dropFirst()).map { $1.secondsOfDay - $0.secondsOfDay }
    let wire = zip(times, times.dropFirst()).map { $1.wireNanoseconds - $0.wireNanoseconds }
    #expect(simulated == Array(repeating: 0.5, count: 5), "\(simulated)")
    #expect(wire == Array(repeating: 1_000_000_000, count: 5), "\(wire)")
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsLate == 0 && statistics.burstsCut == 0, "\(statistics)")
  }

  /// A client asks for 5 Hz at a time scale of 500: 2500 epochs a wire second, lowered to the
  /// limit of 1000 (2 Hz). On the manual clock no epoch is late however long encoding takes:
  /// from the next epoch on, every one is half a simulated second and 1 ms of wire apart.
  @Test func aRateCommandTheScaleWouldPushPastTheLimitIsLowered() throws {
    let log = CollectedLog()
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: .oneHertz, pacing: try BytePacing(baud: 0), timeScale: 500, startTime: Self.start),
      commandHandler: CountingRateHandler(seen: SeenMessages()),
      log: Log(level: .warning, sink: { line in log.append(line) }))
    defer { harness.stop() }
    _ = try Self.rmcTimes(1, of: harness)
    try harness.send("$PMTK220,200*2C\r\n")
    #expect(
      log.contains(
        "5 Hz at time scale 500 needs 2500 epochs a second on the wire, more than 1000; "
          + "sending at 2 Hz"))
    let times = try Self.rmcTimes(21, of: harness)
    let simulated = zip(times, times.dropFirst()).map { $1.secondsOfDay - $0.secondsOfDay }
    let wire = zip(times, times.dropFirst()).map { $1.wireNanoseconds - $0.wireNanoseconds }
    #expect(simulated == Array(repeating: 0.5, count: 20), "\(simulated)")
    #expect(wire == Array(repeating: 1_000_000, count: 20), "\(wire)")
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsLate == 0 && statistics.burstsCut == 0, "\(statistics)")
  }
}
