import DeviceRuntime
import Foundation
import MockGPS
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing

/// The passthrough's timers on the manual clock (`EmulatorHarness(passingThrough:)`): the
/// receiver is a real terminal the test writes into, and time moves only when the test moves
/// it, so each timer is checked to the millisecond without sleeping.
@Suite(.blocking, .timeLimit(.minutes(10)))
struct PassthroughHarnessTests {
  /// What the listeners were handed.
  final class HandedEpochs: Sendable {
    let list = Mutex<[[UInt8]]>([])
    var epochs: [[UInt8]] { list.withLock { $0 } }
  }

  /// A fake receiver in a temporary folder and a harness passing it through, with its log.
  final class Rig {
    let directory: String
    let receiver: FakeReceiver
    let harness: EmulatorHarness
    let log = PassthroughLog()

    /// A rig whose emulator's device is `device` (the receiver is a terminal either way).
    init(device: EmulatorHarness.Device = .pseudoTerminal) throws {
      directory = NSTemporaryDirectory() + "mockgps-passthrough-harness-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      receiver = try FakeReceiver(linkPath: directory + "/ttyREAL")
      let collected = log
      do {
        harness = try EmulatorHarness(
          passingThrough: receiver.linkPath, device: device,
          log: Log(level: .debug, sink: { collected.append($0) }))
      } catch {
        receiver.close()
        throw error
      }
    }

    /// The epochs handed to the listeners from now on, each as its bytes.
    func handedEpochs() -> HandedEpochs {
      let handed = HandedEpochs()
      harness.emulator.addEpochListener { epoch in
        handed.list.withLock { $0.append(Array(epoch.packets.joined())) }
      }
      return handed
    }

    func stop() {
      harness.stop()
      receiver.close()
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// Was a 5 s sleep in `PassthroughRobustnessTests` (4 s asleep, then up to 2.5 s of polling).
  @Test func aReceiverSendingNothingIsReportedOnceAfterFiveSecondsAndStillListenedTo() throws {
    let rig = try Rig()
    defer { rig.stop() }
    let warning =
      "no GNSS data from '\(rig.receiver.linkPath)' in 5 s at 9600 baud; still listening"
    rig.harness.advance(nanoseconds: 4_999_000_000)
    #expect(!rig.log.contains(warning))
    rig.harness.advance(nanoseconds: 1_000_000)
    #expect(rig.log.count(of: warning) == 1)
    rig.harness.advance(nanoseconds: 10_000_000_000)
    #expect(rig.log.count(of: warning) == 1, "once a connection")
    let sentence = PassthroughHotplugTests.sentence
    rig.receiver.send(sentence)
    #expect(try rig.harness.read(sentence.count) == sentence)
  }

  /// How long the receiver is quiet, after its line carried the last bytes, before its epoch
  /// is handed over (`PassthroughLoop.quietNanoseconds`).
  static let quietNanoseconds: Int64 = 30_000_000

  /// How long the rig's line (9600 baud, 8N1) is taken to carry a read of `bytes` after it
  /// came: their line time, at most a long sentence's (100 bytes, 104 ms): a read of a whole
  /// epoch came faster than any line (`PassthroughLoop.carriedReadBytes`).
  static func lineNanoseconds(_ bytes: [UInt8]) -> Int64 {
    Int64(min(bytes.count, 100)) * 10 * 1_000_000_000 / 9600
  }

  /// An epoch goes to the listeners when the next one starts, or once the receiver has been
  /// quiet for 30 ms after its line carried the last bytes: not a millisecond earlier. (This
  /// receiver writes each burst whole, as a writer to a pseudo-terminal does: a burst of 1.6 KB
  /// came faster than its 9600-baud line, which is taken to carry its last sentence only.)
  @Test func anEpochIsHandedOverWhenTheNextStartsOrAfter30QuietMilliseconds() throws {
    let rig = try Rig()
    defer { rig.stop() }
    let handed = rig.handedEpochs()
    // The log's first epoch is its comments; the next two are a receiver's bursts.
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst())
    let (first, second) = (epochs[0], epochs[1])
    rig.receiver.send(first)
    try rig.harness.waitUntilReceived(byteCount: first.count)
    rig.harness.advance(nanoseconds: 10_000_000)
    #expect(handed.epochs.isEmpty, "quiet for 10 ms only, and no next epoch")
    rig.receiver.send(second)
    try rig.harness.waitUntilReceived(byteCount: first.count + second.count)
    #expect(handed.epochs == [first], "the next epoch started")
    // Each burst is on the line from when it came: the second, 10 ms after the first.
    let carried = max(Self.lineNanoseconds(first), 10_000_000 + Self.lineNanoseconds(second))
    rig.harness.advance(nanoseconds: carried - 10_000_000 + 29_000_000)
    #expect(handed.epochs.count == 1, "quiet for 29 ms after the line carried it")
    rig.harness.advance(nanoseconds: 1_000_000)
    #expect(handed.epochs == [first, second], "quiet for 30 ms")
  }

  /// A receiver that writes each sentence as its line starts sending it (mockgps's own device
  /// at 9600 baud: one sentence a write, 30 to 80 ms apart) is silent while the line carries
  /// it, not done: its epoch goes to the listeners whole, once (it went out in pieces, one a
  /// sentence, when the quiet was counted from the write).
  @Test func sentencesWrittenAsTheLineStartsSendingThemAreOneEpoch() throws {
    let rig = try Rig()
    defer { rig.stop() }
    let handed = rig.handedEpochs()
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst())
    let sentences = epochs[0].split(separator: UInt8(ascii: "\n")).map { Array($0) + [10] }
    try #require(sentences.count >= 5)
    try #require(
      sentences.contains { Self.lineNanoseconds($0) > Self.quietNanoseconds },
      "a sentence longer on the line than the quiet time")
    var received = 0
    for sentence in sentences {
      rig.receiver.send(sentence)
      received += sentence.count
      try rig.harness.waitUntilReceived(byteCount: received)
      rig.harness.advance(nanoseconds: Self.lineNanoseconds(sentence))
    }
    #expect(handed.epochs.isEmpty, "nothing before the quiet")
    rig.harness.advance(nanoseconds: Self.quietNanoseconds)
    #expect(handed.epochs == [epochs[0]])
  }
}
