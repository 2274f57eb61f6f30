extension NumberSpelling {
  /// Why `text`, which a person may well have meant as a number, is not spelled by the grammar,
  /// as a message adds it: `no '+' sign` for `+48.2`, `no leading zero` for `048.2`, `no
  /// hexadecimal` for `0x10`, `a digit on each side of the point` for `.5` and `5.`; nil for
  /// any other text (`abc`, `NaN`: the message says enough). White space around `text` is not
  /// looked at.
  public static func refusalHint(_ text: some StringProtocol) -> String? {
    var body = Substring(String(text))
    while body.first?.isWhitespace == true { body.removeFirst() }
    while body.last?.isWhitespace == true { body.removeLast() }
    if body.hasPrefix("+"), decimal(body.dropFirst()) != nil { return "no '+' sign" }
    let unsigned = body.hasPrefix("-") ? body.dropFirst() : body
    if unsigned.count > 2, unsigned.prefix(2).lowercased() == "0x",
      unsigned.dropFirst(2).allSatisfy(\.isHexDigit)
    {
      return "no hexadecimal"
    }
    let afterZeros = unsigned.drop { $0 == "0" }
    if unsigned.count > 1, unsigned.first == "0",
      afterZeros.count < unsigned.count - 1
        || afterZeros.first.map({ ("1"..."9").contains($0) }) == true,
      decimal(afterZeros.isEmpty || afterZeros.first == "." ? "0\(afterZeros)" : afterZeros) != nil
    {
      return "no leading zero"
    }
    if unsigned.first == "." || unsigned.last == ".",
      decimal(unsigned.first == "." ? "0\(unsigned)" : "\(unsigned)0") != nil
    {
      return "a digit on each side of the point"
    }
    return nil
  }

  /// `refusalHint(_:)` as the end of a message: ` (no '+' sign: numbers are written as in
  /// JSON)`, or nothing.
  public static func refusalNote(_ text: some StringProtocol) -> String {
    refusalHint(text).map { " (\($0): numbers are written as in JSON)" } ?? ""
  }
}
