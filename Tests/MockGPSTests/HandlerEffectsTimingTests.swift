import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// What a command handler's effects do to the epochs, on the manual clock (`EmulatorHarness`):
/// from which epoch, at which virtual time.
@Suite(.blocking) struct HandlerEffectsTimingTests {
  /// A harness at `rateHz`, unpaced, with a `CountingRateHandler`.
  static func harness(rateHz: Double) throws -> (SeenMessages, EmulatorHarness) {
    let seen = SeenMessages()
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: 0)),
      commandHandler: CountingRateHandler(seen: seen))
    return (seen, harness)
  }

  /// The lines of the next epoch, and the virtual time it went out at.
  static func epoch(of harness: EmulatorHarness) throws -> (lines: [String], nanoseconds: Int64) {
    let text = String(decoding: try harness.step(), as: UTF8.self)
    return (text.split(separator: "\r\n").map(String.init), harness.clock.now().nanoseconds)
  }

  /// The time of day of an epoch's GGA.
  static func ggaSeconds(_ lines: [String]) throws -> Double {
    let line = try #require(lines.first { $0.dropFirst(3).hasPrefix("GGA") })
    return try #require(try GGA(parsing: line).time).secondsOfDay
  }

  @Test func aRateCommandChangesTheCadenceFromTheNextEpoch() throws {
    let (_, harness) = try Self.harness(rateHz: 1)
    defer { harness.stop() }
    let first = try Self.epoch(of: harness)
    // Sent as the 1 Hz epoch went out: the next one is 0.2 s after it, not 1 s.
    try harness.send("$PMTK220,200*2C\r\n")
    let epochs = try [first] + (0..<5).map { _ in try Self.epoch(of: harness) }
    let simulated = try zip(epochs, epochs.dropFirst()).map {
      try Self.ggaSeconds($1.lines) - Self.ggaSeconds($0.lines)
    }
    let wire = zip(epochs, epochs.dropFirst()).map { $1.nanoseconds - $0.nanoseconds }
    #expect(simulated.allSatisfy { abs($0 - 0.2) < 1e-6 }, "\(simulated)")
    #expect(wire == Array(repeating: 200_000_000, count: 5), "\(wire)")
  }

  @Test func aSentenceSetCommandLeavesOnlyThoseSentences() throws {
    let (seen, harness) = try Self.harness(rateHz: 10)
    defer { harness.stop() }
    _ = try harness.step()
    try harness.send("$PMTK314,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0*29\r\n")
    #expect(seen.all.count == 1)
    let types = try (0..<10).map { _ in
      try Self.epoch(of: harness).lines.map { String($0.dropFirst(3).prefix(3)) }
    }
    #expect(types == Array(repeating: ["GGA"], count: 10), "\(types)")
  }
}
