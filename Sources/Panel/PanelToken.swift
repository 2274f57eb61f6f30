/// The panel's access token: 32 lowercase hex characters, given in the URL printed at start and
/// then in the query of every request the page makes (never a cookie).
public struct PanelToken: Hashable, Sendable, CustomStringConvertible {
  /// The token's text.
  public let text: String

  /// A token from its text: exactly 32 lowercase hex characters, else nil.
  public init?(_ text: String) {
    guard text.utf8.count == 32, text.utf8.allSatisfy(Self.isLowercaseHex) else { return nil }
    self.text = text
  }

  /// A token made of 16 bytes (written as 32 hex characters).
  public init(bytes: [UInt8]) {
    precondition(bytes.count == 16, "a panel token is 16 bytes")
    let digits = Array("0123456789abcdef".utf8)
    var characters: [UInt8] = []
    for byte in bytes {
      characters.append(digits[Int(byte >> 4)])
      characters.append(digits[Int(byte & 0x0F)])
    }
    text = String(decoding: characters, as: UTF8.self)
  }

  public var description: String { text }

  /// True when `candidate` is the token. The time taken depends on the candidate's length
  /// only, never on where it first differs, so that the token cannot be guessed byte by byte.
  public func matches(_ candidate: some StringProtocol) -> Bool {
    let expected = Array(text.utf8)
    var difference = UInt8(truncatingIfNeeded: candidate.utf8.count ^ expected.count)
    if candidate.utf8.count != expected.count { difference |= 1 }
    var index = 0
    for byte in candidate.utf8 {
      difference |= byte ^ expected[index % expected.count]
      index += 1
    }
    return difference == 0
  }

  private static func isLowercaseHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }
}
