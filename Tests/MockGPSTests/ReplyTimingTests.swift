import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// Replies leave as from a UART, on the manual clock: a command arrives at the line rate, the
/// chip processes it, and its answer goes out at the line rate once the line has carried the
/// sentences already written, never inside one.
@Suite(.blocking, .timeLimit(.minutes(10))) struct ReplyTimingTests {
  /// ArduPilot's first CFG-VALSET to a ZED-F9P (UART1 stop bits, data bits, parity, in/out
  /// protocols): 42 bytes on the wire.
  static let valset = UBXFrame(
    .cfgVALSET,
    payload: [0x00, 0x01, 0x00, 0x00]
      + [0x02, 0x00, 0x52, 0x20, 0x01] + [0x03, 0x00, 0x52, 0x20, 0x00]
      + [0x04, 0x00, 0x52, 0x20, 0x00] + [0x01, 0x00, 0x73, 0x10, 0x01]
      + [0x02, 0x00, 0x73, 0x10, 0x01] + [0x01, 0x00, 0x74, 0x10, 0x01]
  ).bytes

  static let second: Int64 = 1_000_000_000

  /// A ZED-F9P at `baud` whose first epoch (with its banner) has been read. At 38400 baud and
  /// above its epoch leaves the line idle for most of the second.
  static func chip(baud: Int) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration()
    configuration.profile = .ubloxF9P
    configuration.pacing = try BytePacing(baud: baud)
    let harness = try EmulatorHarness(configuration: configuration)
    _ = try harness.step()
    return harness
  }

  /// When the answer to `valset` written at `written` may leave: its last byte's arrival at
  /// the line rate, plus the chip's processing.
  static func replyDue(written: Int64, baud: Int) throws -> Int64 {
    written + (try BytePacing(baud: baud)).wireNanoseconds(ofBytes: valset.count, timeScale: 1)
      + ReceiverProfile.ubloxF9P.commandProcessingNanoseconds
  }

  static func isReply(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.count == 10 && bytes.prefix(4).elementsEqual([0xB5, 0x62, 0x05, 0x01])
      && bytes.dropFirst(6).prefix(2).elementsEqual([0x06, 0x8A])
  }

  @Test(arguments: [38_400, 115_200]) func onAnIdleLineTheAckLeavesWhenTheCommandIsProcessed(
    baud: Int
  ) throws {
    let harness = try Self.chip(baud: baud)
    defer { harness.stop() }
    // Well after the first epoch's burst, well before the next epoch.
    let epoch = harness.clock.now().nanoseconds / Self.second * Self.second
    let written = epoch + 900_000_000
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: written))
    try harness.send(bytes: Self.valset, expectingReplies: 1)
    harness.runtime.runDue()
    let due = try Self.replyDue(written: written, baud: baud)
    #expect(harness.runtime.nextDeadlineNanoseconds == due)
    let sent = harness.emulator.statistics.repliesSent
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: due - 1))
    harness.runtime.runDue()
    #expect(harness.emulator.statistics.repliesSent == sent, "not before it is due")
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: due))
    harness.runtime.runDue()
    #expect(harness.emulator.statistics.repliesSent == sent + 1, "at the instant it is due")
    let reply = try harness.read(10)
    #expect(Self.isReply(reply[...]), "\(reply)")
    #expect(try harness.step().first == UInt8(ascii: "$"), "then the next epoch")
  }

  @Test(arguments: [38_400, 115_200]) func duringABurstTheAckFollowsTheSentencesOnTheLine(
    baud: Int
  ) throws {
    let harness = try Self.chip(baud: baud)
    defer { harness.stop() }
    let pacing = try BytePacing(baud: baud)
    // Written so that the answer is due 10 ms into the next epoch's burst.
    let epoch = harness.clock.now().nanoseconds / Self.second * Self.second + Self.second
    let written = epoch - (try Self.replyDue(written: 0, baud: baud)) + 10_000_000
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: written))
    try harness.send(bytes: Self.valset, expectingReplies: 1)
    let bytes = try harness.step()
    guard let start = bytes.indices.first(where: { Self.isReply(bytes[$0...].prefix(10)) }) else {
      Issue.record("no ACK in \(bytes.count) bytes")
      return
    }
    // The epoch without the reply, as the burst planned its writes.
    let epochBytes = Array(bytes[..<start] + bytes[(start + 10)...])
    let lines = String(decoding: epochBytes, as: UTF8.self).split(separator: "\r\n")
    #expect(lines.allSatisfy { $0.hasPrefix("$") }, "an epoch of sentences")
    let chunks = pacing.chunks(
      forLineLengths: lines.map { $0.utf8.count + 2 }, granularityNanoseconds: 40_000_000)
    // At the answer's time (10 ms in) the writes that had started were on the line: the
    // answer follows the last of them.
    let written10ms = chunks.filter { $0.startOffsetNanoseconds <= 10_000_000 }
    #expect(start == written10ms.last?.range.upperBound)
    #expect(start > 0 && bytes[start - 2] == 0x0D && bytes[start - 1] == 0x0A)
    #expect(bytes[start + 10] == UInt8(ascii: "$"), "the burst goes on after the answer")
  }
}
