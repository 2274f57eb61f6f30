/// The NMEA 0183 checksum: the XOR of every byte between `$` (or `!`) and `*`.
public enum Checksum {
  /// The checksum of a sentence body, the text between the start delimiter and `*`.
  ///
  /// Inlinable so that Wire's packet splitter, which checks every sentence a passed-through
  /// receiver sends, gets it specialized for its byte slices.
  @inlinable public static func of<Bytes: Sequence<UInt8>>(_ body: Bytes) -> UInt8 {
    body.reduce(0, ^)
  }

  /// The checksum of a body in memory, eight bytes at a time: XOR is the same in any grouping,
  /// so the words' XOR folded to a byte, then the bytes left over.
  public static func of(_ body: UnsafeRawBufferPointer) -> UInt8 {
    var words: UInt64 = 0
    var offset = 0
    while offset + 8 <= body.count {
      words ^= body.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    words ^= words >> 32
    words ^= words >> 16
    words ^= words >> 8
    var checksum = UInt8(truncatingIfNeeded: words)
    while offset < body.count {
      checksum ^= body[offset]
      offset += 1
    }
    return checksum
  }

  /// Two uppercase hexadecimal digits, as NMEA writes a checksum.
  public static func hex(_ value: UInt8) -> String {
    String(decoding: [hexDigit(value >> 4), hexDigit(value & 0x0F)], as: UTF8.self)
  }

  /// The uppercase hexadecimal digit of a value 0…15, as an ASCII byte.
  public static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// The value of two hexadecimal digits (either case), or nil. A sign is not a digit:
  /// `UInt8(_:radix:)` alone would read `+3` as 3.
  public static func parseHex(_ text: Substring) -> UInt8? {
    guard text.utf8.count == 2, text.utf8.allSatisfy(\.isHexDigit) else { return nil }
    return UInt8(text, radix: 16)
  }
}

extension UInt8 {
  /// True for the ASCII digits and the letters A–F in either case.
  var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
