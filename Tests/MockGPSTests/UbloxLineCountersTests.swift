import MockGPS
import MockGPSTestSupport
import Receiver
import Testing
import UBX

/// A ZED-F9P's MON-COMMS counts UART1's bytes as the device carried them, on the manual clock:
/// every byte a client wrote, the noise among them as skipped, every byte sent.
@Suite(.blocking, .timeLimit(.minutes(10))) struct UbloxLineCountersTests {
  /// A u-32 field of a payload, little-endian.
  static func u4(_ payload: [UInt8], at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(payload[offset + $1]) << (8 * $1) }
  }

  @Test func noiseAndAPollAreCountedAsReceivedAndSkipped() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .ubloxF9P
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    _ = try harness.step()
    let sent = harness.emulator.statistics.bytesSent
    #expect(sent > 0)
    let noise = [UInt8](repeating: 0x41, count: 300)
    try harness.send(bytes: noise + UBXFrame(.monCOMMS).bytes, expectingReplies: 1)
    let bytes = try harness.step()
    let start = try #require(
      bytes.indices.first { bytes[$0...].starts(with: [0xB5, 0x62, 0x0A, 0x36]) })
    let frame = try UBXFrame(parsing: Array(bytes[start...].prefix(6 + 8 + 5 * 40 + 2)))
    // UART1's block is the second, 40 bytes after the 8-byte header.
    let uart1 = 8 + 40
    #expect(Self.u4(frame.payload, at: uart1 + 4) == sent)  // txBytes
    #expect(Self.u4(frame.payload, at: uart1 + 12) == 308)  // rxBytes
    #expect(Self.u4(frame.payload, at: uart1 + 36) == 300)  // skipped
  }
}
