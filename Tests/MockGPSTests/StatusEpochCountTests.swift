import DeviceRuntime
import DeviceTerminal
import Foundation
import MockGPS
import MockGPSTestSupport
import Replay
import TestFixtures
import Testing

/// `status`'s `epoch` and `epochs_sent` count every epoch of every source from the start, on
/// the manual clock, whether or not anything listened to the epochs before the request (the
/// first control request used to start the count: a replay's `status` said `"epoch":0`).
/// The devices are lines in memory: what a client reads is the test's to take, at once.
@Suite(.blocking) struct StatusEpochCountTests {
  /// `"name":value,` in `line`, or nil.
  static func integer(_ name: String, in line: String) -> Int? {
    guard let start = line.range(of: "\"\(name)\":") else { return nil }
    return Int(line[start.upperBound...].prefix { $0.isNumber })
  }

  @Test func aReplaysStatusCountsTheEpochsPlayedBeforeTheFirstRequest() throws {
    let epochs = try ReplayDeviceTests.timedEpochs(atMilliseconds: [0, 100, 200, 300])
    let harness = try ReplayTimingTests.harness(epochs, baud: 0)
    defer { harness.stop() }
    for _ in epochs { _ = try harness.step() }
    let status = harness.emulator.handle(.status).line
    #expect(Self.integer("epoch", in: status) == epochs.count, "\(status)")
    #expect(Self.integer("epochs_sent", in: status) == epochs.count, "\(status)")
    #expect(Self.integer("packets_sent", in: status) == epochs.count, "\(status)")
  }

  /// How long a passthrough's last epoch takes to close after its receiver wrote `bursts`,
  /// each whole, with the manual clock standing still: the longest one's line time at the
  /// rig's 9600 baud (each is on the line from when it came), then 30 quiet milliseconds.
  static func quietAfter(_ bursts: some Sequence<[UInt8]>) -> Int64 {
    (bursts.map(PassthroughHarnessTests.lineNanoseconds).max() ?? 0)
      + PassthroughHarnessTests.quietNanoseconds
  }

  @Test func aSimulatedReceiversStatusCountsTheEpochsDueBeforeTheFirstRequest() throws {
    let harness = try EmulatorHarness(device: .memory)
    defer { harness.stop() }
    for _ in 0..<3 { _ = try harness.step() }
    let status = harness.emulator.handle(.status).line
    #expect(Self.integer("epoch", in: status) == 3, "\(status)")
    #expect(Self.integer("epochs_sent", in: status) == 3, "\(status)")
  }

  /// A passthrough's epochs are its receiver's bursts, grouped: counted sent, with their
  /// packets, though nothing listened to them.
  @Test func aPassthroughsStatusCountsTheReceiversEpochs() throws {
    let rig = try PassthroughHarnessTests.Rig(device: .memory)
    defer { rig.stop() }
    let epochs = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst())
    let sent = epochs.prefix(3)
    var received = 0
    for epoch in sent {
      rig.receiver.send(epoch)
      received += epoch.count
      try rig.harness.waitUntilReceived(byteCount: received)
      #expect(try rig.harness.read(epoch.count) == epoch)
    }
    // The last epoch closes once the receiver has been quiet for 30 ms after its line (9600
    // baud) carried it.
    rig.harness.advance(nanoseconds: Self.quietAfter(sent))
    let status = rig.harness.emulator.handle(.status).line
    #expect(Self.integer("epoch", in: status) == sent.count, "\(status)")
    #expect(Self.integer("epochs_sent", in: status) == sent.count, "\(status)")
    #expect(Self.integer("bytes_sent", in: status) == received, "\(status)")
    #expect(Self.integer("bytes_dropped", in: status) == 0, "\(status)")
    #expect((Self.integer("packets_sent", in: status) ?? 0) > sent.count, "\(status)")
  }

  /// A passthrough's client that does not read: what its queue cannot take is dropped and
  /// counted (`dropBytes`), and each epoch is sent whole or cut; nothing is lost uncounted.
  @Test func aPassthroughDropsWhatAClientDoesNotReadAndCountsEachEpochSentOrCut() throws {
    let rig = try PassthroughHarnessTests.Rig(device: .memory)
    defer { rig.stop() }
    // The client's queue holds what a terminal's line discipline does.
    try rig.harness.setClientRoom(SerialDevice.unreadCapacity)
    let log = Array(try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst())
    var (epochs, received) = (0, 0)
    // Several times what the client's queue holds, for a client that does not read.
    while received < 5 * SerialDevice.unreadCapacity {
      let epoch = log[epochs % log.count]
      #expect(rig.receiver.send(epoch))
      received += epoch.count
      epochs += 1
      try rig.harness.waitUntilReceived(byteCount: received)
    }
    rig.harness.advance(nanoseconds: Self.quietAfter(log))
    let status = rig.harness.emulator.handle(.status).line
    let sent = try #require(Self.integer("epochs_sent", in: status))
    let cut = try #require(Self.integer("epochs_cut", in: status))
    let bytesSent = try #require(Self.integer("bytes_sent", in: status))
    let dropped = try #require(Self.integer("bytes_dropped", in: status))
    #expect(Self.integer("epoch", in: status) == epochs, "\(status)")
    #expect(sent > 0 && cut > 0, "\(status)")
    #expect(sent + cut == epochs, "\(status)")
    #expect(bytesSent + dropped == received, "\(status)")
    #expect(Self.integer("epochs_without_client", in: status) == 0, "\(status)")
  }

  /// Without a client, a passthrough's epochs are counted without a client, with their bytes.
  @Test func aPassthroughWithoutAClientCountsItsEpochsWithoutAClient() throws {
    let directory = NSTemporaryDirectory() + "mockgps-status-epochs-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let receiver = try FakeReceiver(linkPath: directory + "/ttyREAL")
    defer { receiver.close() }
    let harness = try EmulatorHarness(
      passingThrough: receiver.linkPath, holdsClient: false, device: .memory)
    defer { harness.stop() }
    let sent = Array(
      try PassthroughRig.epochs(ofLog: "ublox-neo-m9n-nmea.log").dropFirst(1).prefix(3))
    var received = 0
    for epoch in sent {
      #expect(receiver.send(epoch))
      received += epoch.count
      try harness.waitUntilReceived(byteCount: received)
    }
    harness.advance(nanoseconds: Self.quietAfter(sent))
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsDue == sent.count)
    #expect(statistics.epochsWithoutClient == sent.count)
    #expect(statistics.bytesWithoutClient == received)
    #expect(statistics.epochsSent == 0 && statistics.bytesSent == 0)
  }
}
