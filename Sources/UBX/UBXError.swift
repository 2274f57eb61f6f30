/// Why bytes are not an acceptable UBX frame.
///
/// Each case carries what was found, so a test can match on it and a person can read it.
public enum UBXError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes do not start with the sync characters `B5 62`; `found` holds the first two or
  /// fewer bytes.
  case badSync(found: [UInt8])
  /// The bytes end before the frame does: `found` bytes of the `needed` known so far (8, the
  /// smallest frame, until the length field has arrived). More bytes may complete the frame.
  case truncated(found: Int, needed: Int)
  /// The length field announces a payload longer than `UBXFrame.maximumPayloadLength`.
  case tooLong(Int)
  /// The checksum bytes do not match the class, ID, length and payload.
  case badChecksum(expected: UBXChecksum, found: UBXChecksum)

  public var description: String {
    switch self {
    case .badSync(let found):
      let text = found.map(UBXFrame.hex).joined(separator: " ")
      return "UBX frame must start with 'B5 62', found '\(text)'"
    case .truncated(let found, let needed):
      return "truncated UBX frame: \(found) bytes of \(needed)"
    case .tooLong(let length):
      return "UBX payload length \(length) exceeds \(UBXFrame.maximumPayloadLength)"
    case .badChecksum(let expected, let found):
      return "bad checksum '\(found)' (computed '\(expected)')"
    }
  }
}
