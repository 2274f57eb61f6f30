/// Why bytes are not a SiRF binary frame, or a payload not the message expected.
public enum SiRFError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes do not start with `A0 A2`.
  case badStart(found: [UInt8])
  /// Fewer bytes than the frame needs.
  case truncated(found: Int, needed: Int)
  /// A length field past `SiRFFrame.maximumPayloadLength`.
  case tooLong(Int)
  /// The checksum after the payload is not the payload's.
  case badChecksum(expected: UInt16, found: UInt16)
  /// The frame does not end with `B0 B3`.
  case badEnd(found: [UInt8])
  /// A message's payload is shorter than its fields.
  case shortPayload(messageID: UInt8, found: Int, needed: Int)

  public var description: String {
    switch self {
    case .badStart(let found): return "SiRF frame starts with \(Self.hex(found)), expected 'a0 a2'"
    case .truncated(let found, let needed):
      return "SiRF frame truncated: \(found) of \(needed) bytes"
    case .tooLong(let length):
      return "SiRF payload length \(length) exceeds \(SiRFFrame.maximumPayloadLength)"
    case .badChecksum(let expected, let found):
      return "SiRF checksum \(Self.hex(found)) where the payload gives \(Self.hex(expected))"
    case .badEnd(let found): return "SiRF frame ends with \(Self.hex(found)), expected 'b0 b3'"
    case .shortPayload(let id, let found, let needed):
      return "SiRF MID \(id) payload has \(found) bytes, expected at least \(needed)"
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    "'" + bytes.map { digits($0) }.joined(separator: " ") + "'"
  }

  static func hex(_ value: some FixedWidthInteger) -> String { "'" + digits(value) + "'" }

  /// Lowercase hexadecimal digits, zero-padded to the value's width.
  static func digits(_ value: some FixedWidthInteger) -> String {
    let digits = String(value, radix: 16)
    let width = value.bitWidth / 4
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
