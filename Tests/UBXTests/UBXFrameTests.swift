import Testing
import UBX

/// A frame as bytes on the wire and the values it holds.
struct FrameCase: CustomTestStringConvertible, Sendable {
  let name: String
  let bytes: [UInt8]
  let frame: UBXFrame
  var testDescription: String { name }
}

@Suite struct UBXFrameTests {
  /// Reference bytes from pyubx2 1.4.0 (`python3 -m pip install pyubx2`), for example
  /// `UBXMessage('CFG', 'CFG-RATE', SET, measRate=200, navRate=1, timeRef=1).serialize()`;
  /// the MON-VER poll is also the one gpsd and u-center send to identify a u-blox receiver.
  static let cases: [FrameCase] = [
    FrameCase(
      name: "MON-VER poll", bytes: [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34],
      frame: UBXFrame(.monVER)),
    FrameCase(
      name: "CFG-RATE 200 ms GPS time",
      bytes: [0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xC8, 0x00, 0x01, 0x00, 0x01, 0x00, 0xDE, 0x6A],
      frame: UBXFrame(.cfgRATE, payload: [0xC8, 0x00, 0x01, 0x00, 0x01, 0x00])),
    FrameCase(
      name: "CFG-RATE 1000 ms UTC",
      bytes: [0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0xE8, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x37],
      frame: UBXFrame(.cfgRATE, payload: [0xE8, 0x03, 0x01, 0x00, 0x00, 0x00])),
    FrameCase(
      name: "ACK-ACK of CFG-RATE",
      bytes: [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x08, 0x16, 0x3F],
      frame: UBXFrame(.ackACK, payload: [0x06, 0x08])),
  ]

  @Test(arguments: cases) func realFramesParseAndEncodeBackToTheSameBytes(_ item: FrameCase) throws
  {
    let parsed = try UBXFrame(parsing: item.bytes)
    #expect(parsed == item.frame)
    #expect(parsed.bytes == item.bytes)
    #expect(item.frame.bytes == item.bytes)
  }

  @Test func aCFGRATEBuiltByHandCarriesTheDocumentedChecksum() {
    // measRate 200 ms, navRate 1, timeRef 1 (GPS time), each UInt16 little-endian.
    let frame = UBXFrame(messageClass: 0x06, id: 0x08, payload: [200, 0, 1, 0, 1, 0])
    #expect(frame.bytes.suffix(2) == [0xDE, 0x6A])
    #expect(
      UBXChecksum(over: frame.bytes.dropFirst(2).dropLast(2)) == UBXChecksum(a: 0xDE, b: 0x6A))
  }

  @Test func bytesAfterTheFrameAreIgnored() throws {
    let bytes: [UInt8] = [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34, 0x24, 0x47]
    #expect(try UBXFrame(parsing: bytes) == UBXFrame(.monVER))
  }

  @Test func aFlippedChecksumByteIsReportedWithBothValues() {
    let bytes: [UInt8] = [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x35]
    #expect(
      throws: UBXError.badChecksum(
        expected: UBXChecksum(a: 0x0E, b: 0x34), found: UBXChecksum(a: 0x0E, b: 0x35))
    ) {
      try UBXFrame(parsing: bytes)
    }
  }

  @Test func aCorruptedPayloadByteFailsTheChecksum() {
    var bytes = Self.cases[1].bytes
    bytes[7] ^= 0x01
    #expect {
      try UBXFrame(parsing: bytes)
    } throws: { error in
      guard case .badChecksum(_, let found) = error as? UBXError else { return false }
      return found == UBXChecksum(a: 0xDE, b: 0x6A)
    }
  }

  @Test func everyProperPrefixOfAFrameIsTruncated() {
    let bytes = Self.cases[1].bytes
    for count in 0..<bytes.count {
      let needed = count < 6 ? UBXFrame.overhead : bytes.count
      #expect(throws: UBXError.truncated(found: count, needed: needed)) {
        try UBXFrame(parsing: bytes.prefix(count))
      }
    }
  }

  @Test func bytesThatDoNotStartWithSyncAreBadSync() {
    #expect(throws: UBXError.badSync(found: [0x24, 0x47])) {
      try UBXFrame(parsing: Array("$GPGGA".utf8))
    }
    #expect(throws: UBXError.badSync(found: [0xB5, 0xB5])) {
      try UBXFrame(parsing: [0xB5, 0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34])
    }
  }

  @Test func aPayloadLengthBeyondTheMaximumIsTooLongAsSoonAsTheLengthArrives() {
    // 0x1001 = 4097 bytes announced, none sent: no need to wait for them.
    #expect(throws: UBXError.tooLong(4097)) {
      try UBXFrame(parsing: [0xB5, 0x62, 0x0B, 0x32, 0x01, 0x10])
    }
    #expect(throws: UBXError.tooLong(65535)) {
      try UBXFrame(parsing: [0xB5, 0x62, 0x06, 0x08, 0xFF, 0xFF, 0x00, 0x00])
    }
  }

  @Test func aPayloadOfTheMaximumLengthParses() throws {
    let frame = UBXFrame(
      messageClass: 0x13, id: 0x40,
      payload: (0..<UBXFrame.maximumPayloadLength).map { UInt8($0 & 0xFF) })
    #expect(try UBXFrame(parsing: frame.bytes) == frame)
  }

  @Test func descriptionsNameTheMessageAndShowThePayload() {
    #expect(UBXFrame(.monVER).description == "UBX-MON-VER")
    #expect(Self.cases[1].frame.description == "UBX-CFG-RATE C8 00 01 00 01 00")
    #expect(
      UBXFrame(messageClass: 0x99, id: 0x01, payload: Array(repeating: 0, count: 17)).description
        == "UBX-0x99-0x01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 … (17 bytes)")
  }

  @Test func errorDescriptionsQuoteWhatWasFound() {
    let checksum = UBXError.badChecksum(
      expected: UBXChecksum(a: 0x0E, b: 0x34), found: UBXChecksum(a: 0x0E, b: 0x35))
    #expect(checksum.description == "bad checksum '0E 35' (computed '0E 34')")
    #expect(
      UBXError.badSync(found: [0x24]).description == "UBX frame must start with 'B5 62', found '24'"
    )
    #expect(
      UBXError.truncated(found: 3, needed: 8).description == "truncated UBX frame: 3 bytes of 8")
    #expect(UBXError.tooLong(5000).description == "UBX payload length 5000 exceeds 4096")
  }
}
