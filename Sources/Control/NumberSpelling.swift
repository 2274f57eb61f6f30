/// The one spelling of a number that mockgps reads wherever a person or a program writes one:
/// the command line, `mockgps ctl`, and the control socket, whose JSON has this grammar
/// (RFC 8259): an optional minus, an integer part without leading zeros, an optional fraction,
/// an optional exponent. Hexadecimal, `inf`, `nan`, a plus sign, spaces, a bare point and a
/// comma are refused everywhere alike.
public enum NumberSpelling {
  /// The value `text` spells, or nil when it is not spelled by the grammar (or overflows).
  public static func decimal(_ text: some StringProtocol) -> Double? {
    guard isWellFormed(Array(text.utf8)) else { return nil }
    guard let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  /// True when `text` is an optional minus and digits alone, without leading zeros: a number
  /// that is written as an integer.
  public static func isInteger(_ text: some StringProtocol) -> Bool {
    let bytes = Array(text.utf8)
    return isWellFormed(bytes) && !bytes.contains { [0x2E, 0x65, 0x45].contains($0) }
  }

  private static func isWellFormed(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { return false }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return false }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
