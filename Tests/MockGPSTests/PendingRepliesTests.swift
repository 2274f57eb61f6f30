import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Testing
import UBX

@testable import DeviceSources

/// The answers due and waiting for the line are bounded as a chip's transmit buffer is (16 KiB),
/// on the manual clock: a client polling faster than the line carries the answers loses those
/// that do not fit, counted, and the others come in order with the epochs going on; a driver's
/// burst of acknowledged settings, whose answers the line carries as fast as the commands
/// arrive, loses none. Before, every answer waited: a client flooding `$PUBX,00` polls at
/// 921600 baud grew the emulator by 1 MB a second, and its epoch thread spent its time moving
/// the queue.
@Suite(.blocking, .timeLimit(.minutes(10))) struct PendingRepliesTests {
  static func chip(baud: Int = 9600) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration(pacing: try BytePacing(baud: baud))
    configuration.profile = .ubloxM8
    configuration.baudMismatch = .clean
    return try EmulatorHarness(configuration: configuration, device: .memory)
  }

  /// Sends `polls` PUBX,00 polls at once and steps until each is answered or dropped; returns
  /// the answers sent, those dropped, and the answers the client read.
  static func poll(_ polls: Int, _ harness: EmulatorHarness) throws -> (Int, Int, Int) {
    _ = try harness.step()
    let before = harness.emulator.statistics
    try harness.send(
      String(repeating: "$PUBX,00*33\r\n", count: polls), commands: polls,
      expectingReplies: polls)
    var read = 0
    var (sent, dropped) = (0, 0)
    for _ in 0..<100 where sent + dropped < polls {
      read += try harness.stepText().components(separatedBy: "$PUBX,00,").count - 1
      let now = harness.emulator.statistics
      (sent, dropped) = (
        now.repliesSent - before.repliesSent, now.repliesDropped - before.repliesDropped
      )
    }
    return (sent, dropped, read)
  }

  /// How many times `pattern` occurs in `bytes`.
  static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
    guard bytes.count >= pattern.count else { return 0 }
    return (0...(bytes.count - pattern.count)).count {
      bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
    }
  }

  @Test func answersBeyondTheTransmitBufferAreDroppedAndCounted() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    // 400 polls arrive in 5.4 s at 9600 baud; their answers of about 100 bytes are 40 KB, 42 s
    // of line: what the line carries meanwhile and 16 KiB are sent, the rest dropped.
    let (sent, dropped, read) = try Self.poll(400, harness)
    #expect(dropped > 0)
    #expect(sent + dropped == 400)
    #expect(read == sent)
    #expect(sent * 90 <= 16_384 + 6 * 960, "about 16 KiB of answers and 6 s of line, \(sent)")
  }

  /// Once a step has filled the buffer, a command's answer is dropped as the command is
  /// handled, before it is made, with no step in between.
  @Test func whileTheBufferIsFullAnAnswerIsDroppedBeforeItIsMade() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    _ = try harness.step()
    try harness.send(
      String(repeating: "$PUBX,00*33\r\n", count: 400), commands: 400, expectingReplies: 400)
    // Every poll has arrived after 5.4 s: the answers due fill the buffer.
    for _ in 0..<6 { _ = try harness.step() }
    let before = harness.emulator.statistics.repliesDropped
    try harness.send(
      String(repeating: "$PUBX,00*33\r\n", count: 10), commands: 10, expectingReplies: 10)
    #expect(harness.emulator.statistics.repliesDropped - before == 10)
  }

  /// 3,000 CFG-MSGs in one write (48 KB, read at once: 4.2 s of line at 115200 baud), each
  /// acknowledged with 10 bytes: the line carries the acknowledgements as fast as the commands
  /// arrive, and none is dropped (a review saw 1,661 of 3,000 when the bound counted answers
  /// to commands not yet arrived).
  @Test func aBurstOfSettingsGetsEveryAcknowledgement() throws {
    let harness = try Self.chip(baud: 115_200)
    defer { harness.stop() }
    _ = try harness.step()
    let before = harness.emulator.statistics
    let setting = UBXFrame(.cfgMSG, payload: [0xF0, 0x01, 1]).bytes
    try harness.send(
      bytes: Array(Array(repeating: setting, count: 3_000).joined()), commands: 3_000,
      expectingReplies: 3_000)
    var acknowledged = 0
    let ack = UBXFrame(.ackACK, payload: [0x06, 0x01]).bytes
    // From deadline to deadline for 10 s, reading after each, so that the client's queue
    // never overruns.
    var written = harness.emulator.statistics.bytesSent
    let end = harness.clock.now().nanoseconds + 10_000_000_000
    while harness.clock.now().nanoseconds < end, let next = harness.runtime.nextDeadlineNanoseconds
    {
      harness.clock.set(
        UTCInstant(nanosecondsSinceEpoch: max(next, harness.clock.now().nanoseconds)))
      harness.runtime.runDue()
      let now = harness.emulator.statistics.bytesSent
      acknowledged += Self.occurrences(of: ack, in: try harness.read(now - written))
      written = now
    }
    #expect(acknowledged == 3_000)
    #expect(harness.emulator.statistics.repliesDropped == before.repliesDropped)
  }

  /// A reply of `size` bytes, each its `label`.
  static func reply(_ label: UInt8, due: Int64, size: Int = 10) -> PendingReplies.Reply {
    PendingReplies.Reply(bytes: [UInt8](repeating: label, count: size), due: due)
  }

  /// Taking a reply moves no other: the queue keeps its order through takes, the letting go of
  /// those taken once they are half of it, and drops behind a reply already taken.
  @Test func theQueueKeepsItsOrderThroughTakesAndDrops() {
    var queue = PendingReplies()
    for label in UInt8(0)..<10 { queue.append(Self.reply(label, due: Int64(label))) }
    var taken = (0..<6).map { _ in queue.removeFirst().bytes[0] }
    for label in UInt8(10)..<13 { queue.append(Self.reply(label, due: Int64(label))) }
    #expect(taken == [0, 1, 2, 3, 4, 5])
    #expect(queue.replies.map { $0.bytes[0] } == Array(6...12))
    #expect(queue.first?.bytes[0] == 6)
    while !queue.isEmpty { taken.append(queue.removeFirst().bytes[0]) }
    #expect(taken == Array(0...12))
    #expect(queue.first == nil)

    // One taken of four, the rest due but one: the 16 KiB reply does not fit behind the one
    // before it and is dropped; the one not due stays.
    queue.append(Self.reply(20, due: 0))
    queue.append(Self.reply(21, due: 0))
    queue.append(Self.reply(22, due: 0, size: PendingReplies.capacityBytes))
    queue.append(Self.reply(23, due: 100))
    #expect(queue.removeFirst().bytes[0] == 20)
    #expect(queue.dropOverflow(now: 0) == 1)
    #expect(queue.replies.map { $0.bytes[0] } == [21, 23])
    #expect(queue.dueByteCount == 10)

    // Every reply due, one taken before: the last does not fit and is dropped.
    _ = queue.removeFirst()
    _ = queue.removeFirst()
    for label in UInt8(30)..<34 { queue.append(Self.reply(label, due: 0)) }
    queue.append(Self.reply(34, due: 0, size: PendingReplies.capacityBytes))
    #expect(queue.removeFirst().bytes[0] == 30)
    #expect(queue.dropOverflow(now: 0) == 1)
    #expect(queue.replies.map { $0.bytes[0] } == [31, 32, 33])
    #expect(queue.dueByteCount == 30)
  }

  @Test func aDriversBurstOfPollsIsAnsweredWhole() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    let (sent, dropped, read) = try Self.poll(40, harness)
    #expect((sent, dropped, read) == (40, 0, 40))
  }
}
