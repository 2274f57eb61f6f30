import NMEA

/// Writing JSON text by hand, compact and in a chosen field order: what `JSONEncoder` cannot
/// promise.
enum JSONText {
  /// The largest number of decimals a number is written with.
  static let maximumDigits = 15

  /// A number with at most `digits` decimals, trailing zeros (and a trailing point) cut:
  /// `12.5`, `3`, `-0.25`; `null` when it is not finite.
  static func number(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "null" }
    let digits = min(max(digits, 0), maximumDigits)
    // Beyond 2^53 the decimals are not held anyway: Swift's shortest form is exact enough.
    guard (value.magnitude * NMEADecimal.powerOfTen(digits)).rounded() < 9_007_199_254_740_992
    else { return Swift.String(value) }
    return NMEADecimal(value, fractionDigits: digits).trimmingTrailingZeros.description
  }

  /// Appends `string` as a JSON string: quotes, backslash and control characters escaped,
  /// everything else (non-ASCII included) kept as UTF-8.
  static func appendString(_ string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = Swift.String(scalar.value, radix: 16, uppercase: false)
        text += "\\u" + Swift.String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  /// Appends an object with its members in the given order.
  static func appendObject(_ members: [(String, ControlReply.Value)], to text: inout String) {
    text += "{"
    for (index, (name, value)) in members.enumerated() {
      if index > 0 { text += "," }
      appendString(name, to: &text)
      text += ":"
      value.write(to: &text)
    }
    text += "}"
  }

  /// `string` as a JSON string.
  static func string(_ string: String) -> String {
    var text = ""
    appendString(string, to: &text)
    return text
  }
}
