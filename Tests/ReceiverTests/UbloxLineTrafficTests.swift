import Receiver
import Testing
import UBX

/// UART1's byte counters in MON-COMMS and MON-MSGPP come from the device that carries the line
/// once it reports them: every byte received, those skipped, every byte sent.
@Suite struct UbloxLineTrafficTests {
  /// The 32-bit field at `offset` of a payload.
  static func u4(_ payload: [UInt8], at offset: Int) -> UInt32? {
    var reader = UBXPayloadReader(Array(payload.dropFirst(offset)))
    return reader.u4()
  }

  /// The payload of the poll answer of `type`.
  static func poll(_ handler: inout UbloxCommandHandler, _ type: UBXMessageType) -> [UInt8]? {
    let effects = handler.handle(.ubx(UBXFrame(type, payload: [])))
    guard case .reply(let bytes) = effects.first, let frame = try? UBXFrame(parsing: bytes),
      frame.messageType == type
    else { return nil }
    return frame.payload
  }

  @Test func theDevicesCountsOfAGarbledLineAreReported() throws {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    // 300 bytes of noise and an 8-byte poll read; 5000 bytes sent so far.
    handler.noteLineTraffic(receivedBytes: 308, skippedBytes: 300, sentBytes: 5000)
    let comms = try #require(Self.poll(&handler, .monCOMMS))
    // UART1's block is the second, 40 bytes after the 8-byte header.
    let uart1 = 8 + 40
    #expect(Self.u4(comms, at: uart1 + 4) == 5000)  // txBytes
    #expect(Self.u4(comms, at: uart1 + 12) == 308)  // rxBytes
    #expect(Self.u4(comms, at: uart1 + 36) == 300)  // skipped
    let messages = try #require(Self.poll(&handler, .monMSGPP))
    #expect(Self.u4(messages, at: 96 + 4) == 300)  // UART1's skipped bytes
  }
}
