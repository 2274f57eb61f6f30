import Geodesy
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// A simulated receiver's bytes on its line, on the manual clock (`EmulatorHarness`): when each
/// write leaves, to the nanosecond of virtual time, and what the epoch it belongs to reports.
@Suite(.blocking) struct LinePacingTimingTests {
  /// A harness at `rateHz` and `baud`, simulated time `timeScale` times the wire's.
  static func harness(rateHz: Double, baud: Int, timeScale: Double = 1) throws -> EmulatorHarness {
    try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: baud),
        timeScale: timeScale))
  }

  /// Moves the clock from deadline to deadline for `nanoseconds`, reading what is written;
  /// returns each write (or the writes of one deadline) with its virtual time.
  static func writes(of harness: EmulatorHarness, for nanoseconds: Int64) throws -> [(
    nanoseconds: Int64, bytes: [UInt8]
  )] {
    let end = harness.clock.now().nanoseconds + nanoseconds
    var writes: [(Int64, [UInt8])] = []
    while let next = harness.runtime.nextDeadlineNanoseconds, next <= end {
      let count = harness.advance(
        byNanoseconds: max(0, next - harness.clock.now().nanoseconds))
      if count > 0 { writes.append((harness.clock.now().nanoseconds, try harness.read(count))) }
    }
    let count = harness.advance(byNanoseconds: end - harness.clock.now().nanoseconds)
    if count > 0 { writes.append((harness.clock.now().nanoseconds, try harness.read(count))) }
    return writes
  }

  /// Lines of text.
  static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
  }

  /// At 9600 baud each sentence is a write of its own (40 ms of line time is 38 bytes), and
  /// each write leaves when the line has carried the one before: the last one leaves exactly
  /// the line time of all the others after the first; then nothing until the next second.
  @Test func anEpochIsABurstPacedAtTheBaudThenSilence() throws {
    let harness = try Self.harness(rateHz: 1, baud: 9600)
    defer { harness.stop() }
    _ = try harness.step()
    let writes = try Self.writes(of: harness, for: 2_000_000_000)
    let starts = writes.indices.filter {
      Self.lines(writes[$0].bytes).first?.dropFirst(3).hasPrefix("RMC") == true
    }
    try #require(starts.count == 2, "\(writes.map { Self.lines($0.bytes) })")
    let epoch = writes[starts[0]..<starts[1]]
    #expect(epoch.allSatisfy { Self.lines($0.bytes).count == 1 }, "one sentence a write")
    let lastLine = try #require(epoch.last)
    #expect(Self.lines(lastLine.bytes).first?.dropFirst(3).hasPrefix("ZDA") == true)
    let before = epoch.dropLast().map(\.bytes.count).reduce(0, +)
    let spread = lastLine.nanoseconds - epoch[starts[0]].nanoseconds
    #expect(spread == Int64(before) * 1_000_000_000 / 960, "\(before) bytes in \(spread) ns")
    #expect(writes[starts[1]].nanoseconds - epoch[starts[0]].nanoseconds == 1_000_000_000)
  }

  /// At ten times 1 Hz and 9600 baud an epoch of about 500 bytes leaves ten times as fast:
  /// its last write (up to 384 bytes, 40 ms of line time scaled by 10) leaves the line time of
  /// the bytes before it divided by 10 after the first, and the next epoch 100 ms after the
  /// first (unscaled pacing would cut every burst; none would end each epoch at once).
  @Test func thePacingFollowsTheTimeScale() throws {
    let harness = try Self.harness(rateHz: 1, baud: 9600, timeScale: 10)
    defer { harness.stop() }
    _ = try harness.step()
    let writes = try Self.writes(of: harness, for: 200_000_000)
    let starts = writes.indices.filter {
      Self.lines(writes[$0].bytes).first?.dropFirst(3).hasPrefix("RMC") == true
    }
    try #require(starts.count == 2, "\(writes.map { Self.lines($0.bytes) })")
    let epoch = writes[starts[0]..<starts[1]]
    #expect(epoch.count > 1 && epoch.allSatisfy { $0.bytes.count <= 384 }, "\(epoch.count) writes")
    let lastWrite = try #require(epoch.last)
    let before = Int64(epoch.dropLast().map(\.bytes.count).reduce(0, +))
    let spread = lastWrite.nanoseconds - epoch[starts[0]].nanoseconds
    let expected = Int64((Double(before * 1_000_000_000 / 960) / 10).rounded())
    #expect(abs(spread - expected) <= 1, "\(before) bytes in \(spread) ns, not \(expected)")
    #expect(writes[starts[1]].nanoseconds - epoch[starts[0]].nanoseconds == 100_000_000)
    #expect(harness.emulator.statistics.burstsCut == 0)
  }

  /// Epochs longer than their period (447 bytes at 10 Hz and 4800 baud take 931 ms of line
  /// time): the next epoch waits until the line has carried the last one, so over 10 s the
  /// bytes never outrun the line (480 a second) by more than the write that just left, and
  /// keep it busy.
  @Test func epochsLongerThanTheirPeriodNeverOutrunTheLine() throws {
    let harness = try Self.harness(rateHz: 10, baud: 4800)
    defer { harness.stop() }
    _ = try harness.step()
    let writes = try Self.writes(of: harness, for: 10_000_000_000)
    try #require(writes.count > 50)
    let start = writes[0].nanoseconds
    var bytes = 0
    for write in writes {
      // Before this write, the line had carried every byte written before it (line times in
      // whole nanoseconds, rounded down).
      let elapsed = write.nanoseconds - start
      #expect(
        Int64(bytes) * 1_000_000_000 / 480 <= elapsed, "\(bytes) bytes written by \(elapsed) ns")
      bytes += write.bytes.count
      #expect(write.bytes.count <= 84, "a write of \(write.bytes.count) bytes")
    }
    let seconds = Double((writes.last?.nanoseconds ?? start) - start) / 1e9
    #expect(Double(bytes) >= seconds * 480 * 0.95, "\(bytes) bytes in \(seconds) s")
  }

  /// Each epoch is encoded half a period ahead (at 1 Hz, 0.5 s before it is due), so that
  /// the aligned instant only writes: a position set after that is still the one the epoch
  /// reports.
  @Test func aPositionSetAfterTheEpochWasEncodedAheadIsInTheNextEpoch() throws {
    let harness = try Self.harness(rateHz: 1, baud: 0)
    defer { harness.stop() }
    _ = try harness.step()
    // 0.7 s after the epoch: the next one was encoded 0.2 s ago.
    harness.advance(byNanoseconds: 700_000_000)
    let position = try GeodeticPosition(
      latitude: -33.856_78, longitude: 151.215_3, altitudeMeters: 4)
    harness.emulator.setPosition(position)
    let line = try #require(
      Self.lines(try harness.step()).first { $0.dropFirst(3).hasPrefix("GGA") })
    let gga = try GGA(parsing: line)
    #expect(abs(try #require(gga.latitude).degreesValue - position.latitude) <= 2e-7)
    #expect(abs(try #require(gga.longitude).degreesValue - position.longitude) <= 2e-7)
  }
}
