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

  @Test func aDriversBurstOfPollsIsAnsweredWhole() throws {
    let harness = try Self.chip()
    defer { harness.stop() }
    let (sent, dropped, read) = try Self.poll(40, harness)
    #expect((sent, dropped, read) == (40, 0, 40))
  }
}
