import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Testing

/// A receiver pulled out and plugged back in: the link stays, the client hears silence, and
/// data flows again within 2 s of the return, without a restart.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PassthroughHotplugTests {
  static let sentence = Array("$GPZDA,201418.00,01,12,2026,00,00*6A\r\n".utf8)

  @Test func unpluggedReceiverLeavesTheLinkUpAndComesBackWithinTwoSeconds() throws {
    let rig = try PassthroughRig(override: .off)
    defer { rig.stop() }
    let client = try rig.openClient()
    rig.receiver.send(Self.sentence)
    #expect(client.readBytes(Self.sentence.count, timeoutSeconds: 2) == Self.sentence)

    rig.receiver.unplug()
    #expect(PassthroughRig.wait(seconds: 2) { rig.log.contains("went away; the link stays up") })
    #expect(FileManager.default.fileExists(atPath: rig.linkPath))
    #expect(rig.emulator.device.hasClients)
    #expect(client.readBytes(1, timeoutSeconds: 0.5).isEmpty)

    let replugged = DeviceReader.monotonicNanoseconds()
    try rig.receiver.replug()
    #expect(PassthroughRig.wait(seconds: 2) { rig.log.contains("is back (after") })
    // Data flows again: the receiver sends until the client reads it.
    var arrived: [UInt8] = []
    while arrived.isEmpty, DeviceReader.monotonicNanoseconds() - replugged < 2_000_000_000 {
      rig.receiver.send(Self.sentence)
      arrived = client.readBytes(Self.sentence.count, timeoutSeconds: 0.05)
    }
    let seconds = Double(DeviceReader.monotonicNanoseconds() - replugged) / 1e9
    print("passthrough: data flowed again \(seconds) s after the replug")
    #expect(!arrived.isEmpty)
    #expect(seconds < 2)
    let statistics = try #require(rig.emulator.passthroughStatistics)
    #expect(statistics.receiverLosses == 1)
    #expect(statistics.reconnections == 1)
  }

  @Test func clientBytesWhileUnpluggedAreDroppedAndCounted() throws {
    let rig = try PassthroughRig(override: .off)
    defer { rig.stop() }
    let client = try rig.openClient()
    rig.receiver.unplug()
    #expect(PassthroughRig.wait(seconds: 2) { rig.log.contains("went away") })
    client.write(Self.sentence)
    #expect(
      PassthroughRig.wait(seconds: 2) {
        rig.emulator.passthroughStatistics?.clientBytesDropped == Self.sentence.count
      })
  }
}
