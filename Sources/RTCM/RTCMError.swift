/// Why bytes are not an RTCM 3 frame or a payload not the message its number names.
public enum RTCMError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first byte is not the preamble 0xD3.
  case badPreamble(UInt8)
  /// Fewer bytes than the frame needs.
  case truncated(found: Int, needed: Int)
  /// The CRC-24Q carried differs from the one computed.
  case badChecksum(expected: UInt32, found: UInt32)
  /// A payload ended before the field at `bit` of `width` bits.
  case payloadTooShort(message: Int, bit: Int, width: Int)
  /// A field holds a value the message cannot have.
  case invalidField(message: Int, name: String, value: Int64)
  /// A payload whose message number the decoder does not know.
  case unsupportedMessage(Int)
  /// A value too large for the field it must be written to.
  case valueOutOfRange(name: String, value: Double)

  /// A lowercase description with the values quoted.
  public var description: String {
    switch self {
    case .badPreamble(let byte): return "bad preamble '\(byte)'"
    case .truncated(let found, let needed):
      return "truncated frame: '\(found)' bytes of '\(needed)'"
    case .badChecksum(let expected, let found):
      return "bad crc-24q '\(found)', expected '\(expected)'"
    case .payloadTooShort(let message, let bit, let width):
      return "message '\(message)' ends before its \(width)-bit field at bit '\(bit)'"
    case .invalidField(let message, let name, let value):
      return "invalid \(name) '\(value)' in message '\(message)'"
    case .unsupportedMessage(let number): return "unsupported message '\(number)'"
    case .valueOutOfRange(let name, let value): return "\(name) '\(value)' out of range"
    }
  }
}
