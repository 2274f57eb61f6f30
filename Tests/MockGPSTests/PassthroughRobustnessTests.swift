import DeviceRuntime
import DeviceSources
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Synchronization
import TestFixtures
import Testing
import Udev

/// Bad receivers and bad paths: a flood never blocks the client and every byte of it is
/// accounted for (its memory is `PassthroughFloodProcessTests`', measured on a process of its
/// own), and a path that is missing or not a terminal is refused with the right error.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct PassthroughRobustnessTests {
  @Test func aFloodingReceiverWithAClientNotReadingIsAccountedFor() throws {
    let rig = try PassthroughRig(override: .replace)
    defer { rig.stop() }
    let client = try rig.openClient()
    let receiver = rig.receiver
    let garbage = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
    let flooding = Atomic<Bool>(true)
    let finished = Atomic<Bool>(false)
    let sentBytes = Atomic<Int>(0)
    let flooder = Thread {
      while flooding.load(ordering: .relaxed), receiver.send(garbage) {
        sentBytes.add(garbage.count, ordering: .relaxed)
      }
      finished.store(true, ordering: .releasing)
    }
    flooder.start()
    usleep(3_000_000)
    // The device still answers: what the client writes reaches the receiver.
    client.write(Array("$PMTK605*31\r\n".utf8))
    let answered = PassthroughRig.wait(seconds: 2) { receiver.received.count == 13 }
    flooding.store(false, ordering: .relaxed)
    #expect(PassthroughRig.wait(seconds: 3) { finished.load(ordering: .acquiring) })
    let sent = sentBytes.load(ordering: .relaxed)
    // Everything sent is read, and every byte read is accounted for: written to the client,
    // or dropped and counted; nothing waits in between but what the rewriter holds.
    let emulator = rig.emulator
    #expect(
      PassthroughRig.wait(seconds: 3) {
        (emulator.passthroughStatistics?.rewriter.bytesReceived ?? 0) >= sent
      })
    let statistics = try #require(emulator.passthroughStatistics)
    let dropped = emulator.statistics.bytesDropped
    let held = statistics.rewriter.bytesReceived - statistics.rewriter.bytesForwarded
    print(
      "passthrough flood: \(sent) bytes sent in 3 s, dropped \(dropped), held by the rewriter \(held)"
    )
    #expect(answered)
    // More than a 921,600-baud line carries in 3 s.
    #expect(sent > 300_000)
    #expect(dropped > 0)
    #expect(held < 65_536)
    // The last forwarded bytes may still be on their way to the terminal when the counters
    // are first read: the sum holds once they are written or dropped.
    let accounted = PassthroughRig.wait(seconds: 3) {
      guard let now = emulator.passthroughStatistics else { return false }
      let device = emulator.statistics
      return now.rewriter.bytesForwarded
        == device.bytesDropped + device.bytesWithoutClient + device.bytesSent
    }
    #expect(
      accounted,
      """
      forwarded \(statistics.rewriter.bytesForwarded), dropped \(emulator.statistics.bytesDropped), \
      without a client \(emulator.statistics.bytesWithoutClient), \
      sent \(emulator.statistics.bytesSent)
      """)
  }

  @Test func autoWithNoReceiverIsRefusedListingWhatWasFound() throws {
    guard case .noReceiver(let error) = Self.startError(target: .auto(.anyKnownReceiver)) else {
      Issue.record("auto started without a receiver on this machine")
      return
    }
    #expect(error.matches.isEmpty)
  }

  @Test func aMissingPathIsRefusedAsMissing() throws {
    let error = Self.startError(passingThrough: "/dev/mockgps-no-such-receiver")
    #expect(error == .missing("/dev/mockgps-no-such-receiver"))
  }

  @Test func devNullIsRefusedAsNotATerminal() throws {
    #expect(Self.startError(passingThrough: "/dev/null") == .notATerminal("/dev/null"))
  }

  /// The passthrough error an emulator refuses to start with, or nil.
  static func startError(passingThrough path: String) -> PassthroughOpenError? {
    startError(target: .path(path))
  }

  static func startError(target: PassthroughTarget) -> PassthroughOpenError? {
    let directory = NSTemporaryDirectory() + "mockgps-passthrough-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = EmulatorConfiguration(linkPath: directory + "/ttyMOCKGPS", groupName: nil)
    configuration.passthrough = PassthroughSettings(target: target, baud: 9600)
    do {
      let emulator = try Emulator(configuration: configuration, log: Log(level: .quiet))
      emulator.stop()
      return nil
    } catch {
      guard case .passthrough(let reason) = error else { return nil }
      #expect(!FileManager.default.fileExists(atPath: directory + "/ttyMOCKGPS"))
      return reason
    }
  }
}
