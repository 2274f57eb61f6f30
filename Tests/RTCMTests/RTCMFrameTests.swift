import Testing

@testable import RTCM

/// Frames: the example of RTCM 10403.3 (message 1005 of station 2003), its bytes rebuilt, and
/// what is not a frame.
@Suite struct RTCMFrameTests {
  /// Message 1005 as RTCM 10403.3 prints it (pyrtcm decodes it to station 2003 at
  /// 1114104.5999, −4850729.7108, 3975521.4643).
  static let standardExample: [UInt8] = [
    0xD3, 0x00, 0x13, 0x3E, 0xD7, 0xD3, 0x02, 0x02, 0x98, 0x0E, 0xDE, 0xEF, 0x34, 0xB4, 0xBD,
    0x62, 0xAC, 0x09, 0x41, 0x98, 0x6F, 0x33, 0x36, 0x0B, 0x98,
  ]

  @Test func theStandardsExampleParsesAndReencodes() throws {
    let frame = try RTCMFrame(parsing: Self.standardExample + [0xD3])
    #expect(frame.messageNumber == 1005)
    #expect(frame.payload.count == 19)
    #expect(frame.bytes == Self.standardExample)
  }

  @Test func aFlippedBitFailsTheCRC() {
    var bytes = Self.standardExample
    bytes[10] ^= 0x04
    #expect {
      _ = try RTCMFrame(parsing: bytes)
    } throws: { error in
      if case RTCMError.badChecksum = error { return true }
      return false
    }
  }

  @Test func aShortFrameNeedsItsWholeLength() {
    #expect(throws: RTCMError.truncated(found: 10, needed: 25)) {
      _ = try RTCMFrame(parsing: Self.standardExample.prefix(10))
    }
    #expect(throws: RTCMError.truncated(found: 2, needed: 3)) {
      _ = try RTCMFrame(parsing: Self.standardExample.prefix(2))
    }
  }

  @Test func anotherFirstByteOrReservedBitsAreNoFrame() {
    #expect(throws: RTCMError.badPreamble(0x24)) { _ = try RTCMFrame(parsing: [0x24, 0, 0]) }
    #expect(throws: RTCMError.badPreamble(0xD3)) { _ = try RTCMFrame(parsing: [0xD3, 0x04, 0]) }
  }

  @Test func anEmptyPayloadHasNoMessageNumber() throws {
    let frame = try RTCMFrame(parsing: RTCMFrame(payload: []).bytes)
    #expect(frame.payload.isEmpty)
    #expect(frame.messageNumber == nil)
  }
}
