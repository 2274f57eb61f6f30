import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import SystemIO
import TestFixtures
import Testing

/// A client's change of baud is followed on the real port: a termios speed set on the link,
/// or a UBX CFG-PRT that the receiver acknowledges.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct PassthroughBaudTests {
  @Test func aSpeedTheClientSetsOnTheLinkIsSetOnTheReceiversPort() throws {
    let rig = try PassthroughRig(override: .off, baud: 9600)
    defer { rig.stop() }
    #expect(rig.receiver.lineBaud == 9600)
    let client = try rig.openClient()
    var settings = try TerminalAttributes.read(from: client.descriptor)
    settings.setSpeed(baud: 38_400)
    try settings.apply(to: client.descriptor)
    #expect(PassthroughRig.wait(seconds: 2) { rig.receiver.lineBaud == 38_400 })
    #expect(rig.emulator.passthroughStatistics?.baud == 38_400)
  }

  /// Needs the baud watcher (engineer udev's `BaudChangeWatcher`): with the placeholder on
  /// this branch, the acknowledgement changes nothing.
  @Test func anAcknowledgedCFGPRTSwitchesTheReceiversPort() throws {
    let rig = try PassthroughRig(override: .off, baud: 9600)
    defer { rig.stop() }
    let client = try rig.openClient()
    let command = Self.frame(
      classID: 0x06, messageID: 0x00,
      payload: [0x01, 0x00, 0x00, 0x00, 0xC0, 0x08, 0x00, 0x00]
        + Self.littleEndian(115_200) + [0x07, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00])
    client.write(command)
    #expect(PassthroughRig.wait(seconds: 2) { rig.receiver.received == command })
    let acknowledgement = Self.frame(classID: 0x05, messageID: 0x01, payload: [0x06, 0x00])
    rig.receiver.send(acknowledgement)
    #expect(client.readBytes(acknowledgement.count, timeoutSeconds: 2) == acknowledgement)
    #expect(PassthroughRig.wait(seconds: 2) { rig.receiver.lineBaud == 115_200 })
  }

  /// Needs the detector (engineer udev's `GNSSDataDetector`). A pseudo-terminal carries bytes
  /// whatever its speed, so the first rate tried finds the data: this shows that nothing is
  /// forwarded before, and everything after.
  @Test func autoBaudForwardsOnceGNSSDataIsSeen() throws {
    let rig = try PassthroughRig(override: .off, findsBaud: true)
    defer { rig.stop() }
    let client = try rig.openClient()
    let sentence = PassthroughHotplugTests.sentence
    rig.receiver.send(sentence)
    #expect(PassthroughRig.wait(seconds: 2) { rig.log.contains("sends GNSS data at 9600 baud") })
    rig.receiver.send(sentence)
    #expect(
      client.readBytes(2 * sentence.count, timeoutSeconds: 2).suffix(sentence.count)
        == sentence[...])
  }

  /// A UBX frame with its checksum.
  static func frame(classID: UInt8, messageID: UInt8, payload: [UInt8]) -> [UInt8] {
    let body =
      [classID, messageID, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in body {
      a &+= byte
      b &+= a
    }
    return [0xB5, 0x62] + body + [a, b]
  }

  static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
  }
}
