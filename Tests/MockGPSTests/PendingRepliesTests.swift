import MockGPS
import MockGPSTestSupport
import Receiver
import Testing

/// The answers waiting for the line are bounded as a chip's transmit buffer is (16 KiB), on the
/// manual clock: a client polling faster than the line carries the answers loses those that do
/// not fit, counted, and the others come in order with the epochs going on. Before, every
/// answer waited: a client flooding `$PUBX,00` polls at 921600 baud grew the emulator by 1 MB a
/// second, and its epoch thread spent its time moving the queue.
@Suite(.blocking, .timeLimit(.minutes(10))) struct PendingRepliesTests {
  static func chip() throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration(pacing: try BytePacing(baud: 9600))
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

  @Test func answersBeyondTheTransmitBufferAreDroppedAndCounted() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    // 400 answers of about 100 bytes: 40 KB, 42 s of line at 9600 baud.
    let (sent, dropped, read) = try Self.poll(400, harness)
    #expect(dropped > 0)
    #expect(sent + dropped == 400)
    #expect(read == sent)
    #expect(sent * 90 <= 16_384, "about 16 KiB of answers, \(sent)")
  }

  /// Once a step has filled the buffer, a command's answer is dropped as the command is
  /// handled, before it is made, with no step in between.
  @Test func whileTheBufferIsFullAnAnswerIsDroppedBeforeItIsMade() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    _ = try harness.step()
    try harness.send(
      String(repeating: "$PUBX,00*33\r\n", count: 400), commands: 400, expectingReplies: 400)
    harness.runtime.runDue()
    let before = harness.emulator.statistics.repliesDropped
    try harness.send(
      String(repeating: "$PUBX,00*33\r\n", count: 10), commands: 10, expectingReplies: 10)
    #expect(harness.emulator.statistics.repliesDropped - before == 10)
  }

  @Test func aDriversBurstOfPollsIsAnsweredWhole() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    let (sent, dropped, read) = try Self.poll(40, harness)
    #expect((sent, dropped, read) == (40, 0, 40))
  }
}
