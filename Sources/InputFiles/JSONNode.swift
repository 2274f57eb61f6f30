/// A JSON value (RFC 8259) as the one JSON parser of mockgps reads it (scenario, GeoJSON and
/// fleet files, control lines), with the line it starts on, the members of objects in file
/// order, and numbers kept as written: `JSONDecoder`'s errors name no line ("The given data
/// was not valid JSON."), it keeps one of two equal keys without a word and loses the order of
/// the members.
package struct JSONNode: Hashable, Sendable {
  /// What a node holds.
  package enum Value: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written and as the nearest `Double` (infinite when too large).
    case number(text: String, value: Double)
    /// A string, its escapes decoded.
    case string(String)
    /// An array's elements in order.
    case array([JSONNode])
    /// An object's members in file order, a key given twice kept twice.
    case object([Member])
  }

  /// One `"key": value` of an object.
  package struct Member: Hashable, Sendable {
    /// The key, its escapes decoded.
    package var key: String
    /// The member's value.
    package var value: JSONNode
  }

  /// What the node holds.
  package var value: Value
  /// The line the value starts on, from 1 (stored in 32 bits: a GeoJSON track holds millions
  /// of nodes, and this keeps a number's node at 32 bytes).
  private var storedLine: Int32
  /// The line the value starts on, from 1.
  package var line: Int {
    get { Int(storedLine) }
    set { storedLine = Int32(clamping: newValue) }
  }

  /// A node of `value` starting on `line`.
  package init(value: Value, line: Int) {
    self.value = value
    storedLine = Int32(clamping: line)
  }

  /// How a message shows the value: `"4d"`, `12.5`, `true`, `null`, `an array`, `an object`.
  package var shortDescription: String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let text, _):
      return text.count > 40 ? "\(text.prefix(40))… (\(text.count) characters)" : text
    case .string(let text):
      let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
      return "\"\(shown)\""
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

extension JSONNode {
  /// Text as a one-line message can show it: line breaks, tabs and other control characters
  /// written as escapes (`\n`, `\u{2028}`).
  package static func printable(_ text: some StringProtocol) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar.properties.generalCategory == .lineSeparator
        || scalar.properties.generalCategory == .paragraphSeparator:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
