import DeviceRuntime
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// `--time-scale` on the manual clock (`EmulatorHarness`): epochs keep their simulated period
/// and leave on the wire as many times as often as simulated time runs faster, at exact virtual
/// times, on a line in memory. What the kernel does with the bytes stays with
/// `TimeScaleDeviceTests`.
@Suite(.blocking) struct TimeScaleTimingTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

  /// A harness at `rateHz`, unpaced, with simulated time `timeScale` times the wire's, from
  /// noon on 1 June 2024.
  static func harness(rateHz: Double, timeScale: Double) throws -> EmulatorHarness {
    try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: 0),
        timeScale: timeScale, startTime: start), device: .memory)
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

  /// A scaled cadence: epochs one simulated period apart, leaving the period divided by the
  /// scale apart on the wire, exactly.
  struct Scaled: Sendable, CustomTestStringConvertible {
    var rateHz: Double
    var timeScale: Double
    var epochs: Int
    var simulatedSeconds: Double
    var wireNanoseconds: Int64
    var testDescription: String { "\(rateHz) Hz at \(timeScale)x" }
  }

  @Test(arguments: [
    // At ten times, 1 Hz epochs leave every 100 ms, one simulated second apart.
    Scaled(
      rateHz: 1, timeScale: 10, epochs: 20, simulatedSeconds: 1, wireNanoseconds: 100_000_000),
    // At half speed, 2 Hz leaves once a wire second, half a simulated second apart.
    Scaled(
      rateHz: 2, timeScale: 0.5, epochs: 6, simulatedSeconds: 0.5,
      wireNanoseconds: 1_000_000_000),
  ])
  func scaledEpochsLeaveThePeriodOverTheScaleApart(_ c: Scaled) throws {
    let harness = try Self.harness(rateHz: c.rateHz, timeScale: c.timeScale)
    defer { harness.stop() }
    let times = try Self.rmcTimes(c.epochs, of: harness)
    let simulated = zip(times, times.dropFirst()).map { $1.secondsOfDay - $0.secondsOfDay }
    let wire = zip(times, times.dropFirst()).map { $1.wireNanoseconds - $0.wireNanoseconds }
    #expect(simulated == Array(repeating: c.simulatedSeconds, count: c.epochs - 1), "\(simulated)")
    #expect(wire == Array(repeating: c.wireNanoseconds, count: c.epochs - 1), "\(wire)")
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
      commandHandler: CountingRateHandler(seen: SeenMessages()), device: .memory,
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
