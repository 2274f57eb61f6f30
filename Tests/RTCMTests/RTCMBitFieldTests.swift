import Testing

@testable import RTCM

/// The bit writer and reader: big-endian fields across byte boundaries, two's complement and
/// sign-magnitude, and a payload that ends early.
@Suite struct RTCMBitFieldTests {
  @Test func fieldsPackMostSignificantBitFirstAcrossBytes() {
    var writer = RTCMBitWriter()
    writer.append(unsigned: 1005, width: 12)
    writer.append(unsigned: 2003, width: 12)
    writer.append(true)
    #expect(writer.bytes == [0x3E, 0xD7, 0xD3, 0x80])
    #expect(writer.bitCount == 25)
  }

  @Test(arguments: [Int64(0), 1, -1, 8191, -8192, 123_456, -123_456])
  func signedFieldsRoundTrip(value: Int64) throws {
    var writer = RTCMBitWriter()
    writer.append(unsigned: 5, width: 3)
    writer.append(signed: value, width: 38)
    writer.append(signMagnitude: value, width: 38)
    var reader = RTCMBitReader(writer.bytes)
    #expect(try reader.unsigned(3) == 5)
    #expect(try reader.signed(38) == value)
    #expect(try reader.signMagnitude(38) == value)
  }

  @Test func twosComplementAndSignMagnitudeDiffer() {
    var twos = RTCMBitWriter()
    twos.append(signed: -1, width: 8)
    var magnitude = RTCMBitWriter()
    magnitude.append(signMagnitude: -1, width: 8)
    #expect(twos.bytes == [0xFF])
    #expect(magnitude.bytes == [0x81])
  }

  @Test func sixtyFourBitFieldsRoundTrip() throws {
    var writer = RTCMBitWriter()
    writer.append(unsigned: 1, width: 1)
    writer.append(unsigned: 0x8000_0000_0000_0001, width: 64)
    var reader = RTCMBitReader(writer.bytes)
    #expect(try reader.flag())
    #expect(try reader.unsigned(64) == 0x8000_0000_0000_0001)
  }

  @Test func readingPastTheEndThrowsWithThePosition() {
    var reader = RTCMBitReader([0xFF, 0xFF], message: 1005)
    #expect(throws: RTCMError.payloadTooShort(message: 1005, bit: 12, width: 12)) {
      _ = try reader.unsigned(12)
      _ = try reader.unsigned(12)
    }
  }
}
