/// Why a line of text is not an acceptable NMEA 0183 sentence.
///
/// Each case carries what was found, so a test can match on it and a person can read it.
public enum SentenceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line was empty.
  case empty
  /// The line does not start with `$` or `!`.
  case missingStartDelimiter(found: String)
  /// The line has no `*hh` checksum.
  case missingChecksum
  /// The text after `*` is not two hexadecimal digits.
  case malformedChecksum(String)
  /// The checksum does not match the sentence body.
  case badChecksum(expected: UInt8, found: UInt8)
  /// A byte that NMEA 0183 does not allow inside a sentence.
  case invalidCharacter(UInt8, offset: Int)
  /// The address field (talker and type) is malformed.
  case invalidAddress(String)
  /// The sentence is of another type than the one asked for.
  case unexpectedType(expected: String, found: String)
  /// Fewer fields than the sentence type requires.
  case tooFewFields(sentence: String, expected: Int, found: Int)
  /// A field whose text does not fit its format.
  case invalidField(sentence: String, field: String, value: String, expected: String)

  public var description: String {
    switch self {
    case .empty:
      return "empty sentence"
    case .missingStartDelimiter(let found):
      return "sentence must start with '$' or '!', found '\(found)'"
    case .missingChecksum:
      return "missing checksum '*hh'"
    case .malformedChecksum(let text):
      return "malformed checksum '\(text)' (expected two hex digits)"
    case .badChecksum(let expected, let found):
      return "bad checksum \(Checksum.hex(found)) (computed \(Checksum.hex(expected)))"
    case .invalidCharacter(let byte, let offset):
      return "invalid character 0x\(Checksum.hex(byte)) at offset \(offset)"
    case .invalidAddress(let address):
      return "invalid address '\(address)'"
    case .unexpectedType(let expected, let found):
      return "expected a \(expected) sentence, found '\(found)'"
    case .tooFewFields(let sentence, let expected, let found):
      return "\(sentence) needs at least \(expected) fields, found \(found)"
    case .invalidField(let sentence, let field, let value, let expected):
      return "invalid \(field) '\(value)' in \(sentence) (expected \(expected))"
    }
  }
}
