import MockGPS
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// The u-blox 9 messages whose content comes from the chip's state beyond the fix, through the
/// emulator on the manual clock: NAV-SIG lists the signals the configuration leaves enabled,
/// MON-COMMS counts what the client has written.
@Suite(.blocking, .timeLimit(.minutes(10))) struct UbloxPeriodicOutputEffectTests {
  /// The UBX frames among an epoch's bytes.
  static func frames(in bytes: [UInt8]) -> [UBXFrame] {
    var frames: [UBXFrame] = []
    var rest = bytes[...]
    while let start = rest.firstIndex(of: 0xB5) {
      rest = rest[start...]
      let length = rest.dropFirst(4).prefix(2).reversed().reduce(0) { $0 << 8 | Int($1) }
      guard let frame = try? UBXFrame(parsing: rest.prefix(length + 8)) else {
        rest = rest.dropFirst()
        continue
      }
      frames.append(frame)
      rest = rest.dropFirst(length + 8)
    }
    return frames
  }

  @Test func navSIGFollowsTheSignalsAndMONCOMMSTheTrafficOfTheClient() throws {
    let harness = try ConfiguredEpoch.harness(.ubloxF9P)
    defer { harness.stop() }
    _ = try harness.step()
    // CFG-MSGOUT NAV-SIG and MON-COMMS on UART1 at rate 1, GPS L2C off.
    let valset = ConfiguredEpoch.valueSet([
      (0x2091_0346, 1), (0x2091_0350, 1), (0x1031_0003, 0),
    ])
    try harness.send(bytes: valset.bytes, expectingReplies: 1)
    let frames = Self.frames(in: try harness.step())
    let signals = try #require(frames.first { $0.messageType == .navSIG }).payload
    let blocks = (0..<Int(signals[5])).map { signals.dropFirst(8 + 16 * $0).prefix(3) }
    let gps = blocks.filter { $0.first == 0 }.map { Array($0) }
    #expect(!gps.isEmpty && gps.allSatisfy { $0[2] == 0 }, "GPS on L1 C/A only: \(gps)")
    #expect(blocks.contains { $0.first == 6 && $0.last == 2 }, "GLONASS L2 still listed")
    let comms = try #require(frames.first { $0.messageType == .monCOMMS }).payload
    // UART1's block is the second: rxBytes at 12, its UBX message count at 20.
    let uart1 = Array(comms.dropFirst(8 + 40))
    let received = uart1[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    #expect(received == valset.bytes.count)
    #expect(uart1[20] == 1)
  }
}
