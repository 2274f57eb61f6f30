/// Why a text is not JSON: what was found where.
package struct JSONSyntaxError: Error, Hashable, Sendable {
  /// The line of the fault, from 1.
  package var line: Int
  /// The column (byte) of the fault, from 1.
  package var column: Int
  /// What was expected and what was found.
  package var message: String
}

extension JSONParser {
  /// Parses the JSON text of file `name`; a syntax error is the file's one diagnostic, with
  /// its line and column.
  package static func parse(_ bytes: [UInt8], file name: String) throws(InputFileError) -> JSONNode
  {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw .invalid([
        InputDiagnostic(
          InputLocation(file: name, line: error.line, column: error.column),
          "invalid JSON: \(error.message)")
      ])
    }
  }
}

/// A recursive-descent JSON parser over UTF-8 bytes that tracks lines and columns.
package struct JSONParser {
  /// The deepest nesting accepted; scenario files need five levels.
  package static let maximumDepth = 64

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var lineStart = 0
  private var requiresUTF8 = false
  /// Set by `topLevelKeys`: the keys of the top-level object, collected as they are read (its
  /// members are then not kept).
  private var topLevelKeys: [String]?
  /// A top-level key that ends `topLevelKeys`' reading.
  private var stoppingKeys: Set<String> = []

  /// Parses a whole document: one value, with only whitespace around it. Strings that are not
  /// UTF-8 are errors when `requiresUTF8`, else their bad bytes become U+FFFD.
  package static func parse(
    _ bytes: [UInt8], requiresUTF8: Bool = false
  ) throws(JSONSyntaxError) -> JSONNode {
    var parser = JSONParser(bytes: bytes)
    parser.requiresUTF8 = requiresUTF8
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    let node = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("expected the end of the file") }
    return node
  }

  /// The keys of the top-level object in file order, read as far as the text is JSON: a text
  /// cut short or broken further on still names the keys before the break. The reading ends
  /// after a key of `stops`. Nil when the text does not start as an object.
  package static func topLevelKeys(_ bytes: [UInt8], stoppingAt stops: Set<String> = [])
    -> [String]?
  {
    guard startsAsObject(bytes) else { return nil }
    var parser = JSONParser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.topLevelKeys = []
    parser.stoppingKeys = stops
    _ = try? parser.value(depth: 0)
    return parser.topLevelKeys
  }

  /// True when the first byte past a byte order mark and white space is `{`.
  package static func startsAsObject(_ bytes: some Collection<UInt8>) -> Bool {
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes.dropFirst(0)
    return text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private func error(_ expected: String) -> JSONSyntaxError {
    let found: String
    if let byte = current {
      found =
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
    } else {
      found = "the end of the file"
    }
    return JSONSyntaxError(
      line: line, column: index - lineStart + 1, message: "\(expected), got \(found)")
  }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      index += 1
      if byte == 0x0A {
        line += 1
        lineStart = index
      }
    }
  }

  private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
    skipWhitespace()
    guard depth < Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
    let startLine = line
    let value: JSONNode.Value
    guard let byte = current else { throw error("expected a value") }
    switch byte {
    case UInt8(ascii: "{"): value = .object(try members(depth: depth))
    case UInt8(ascii: "["): value = .array(try elements(depth: depth))
    case UInt8(ascii: "\""): value = .string(try string())
    case UInt8(ascii: "t"): value = try literal("true", .bool(true))
    case UInt8(ascii: "f"): value = try literal("false", .bool(false))
    case UInt8(ascii: "n"): value = try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try number()
    default: throw error("expected a value")
    }
    return JSONNode(value: value, line: startLine)
  }

  private mutating func literal(
    _ word: String, _ value: JSONNode.Value
  ) throws(JSONSyntaxError) -> JSONNode.Value {
    for byte in word.utf8 {
      guard current == byte else { throw error("expected '\(word)'") }
      index += 1
    }
    return value
  }

  /// The members of an object, from its `{`.
  private mutating func members(depth: Int) throws(JSONSyntaxError) -> [JSONNode.Member] {
    var members: [JSONNode.Member] = []
    try items(closingWith: UInt8(ascii: "}"), after: "a member") { parser throws(JSONSyntaxError) in
      try parser.member(depth: depth, into: &members)
    }
    return members
  }

  /// One `"key": value` of an object at `depth`, added to `members` (or, when the top level's
  /// keys are being collected, to them).
  private mutating func member(depth: Int, into members: inout [JSONNode.Member])
    throws(JSONSyntaxError)
  {
    skipWhitespace()
    guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
    let key = try string()
    skipWhitespace()
    guard current == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
    index += 1
    if depth == 0, topLevelKeys != nil {
      topLevelKeys?.append(key)
      if stoppingKeys.contains(key) { throw error("stopped after the key '\(key)'") }
      _ = try value(depth: depth + 1)
    } else {
      members.append(JSONNode.Member(key: key, value: try value(depth: depth + 1)))
    }
  }

  /// The elements of an array, from its `[`.
  private mutating func elements(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
    var elements: [JSONNode] = []
    try items(closingWith: UInt8(ascii: "]"), after: "an element") {
      parser throws(JSONSyntaxError) in
      elements.append(try parser.value(depth: depth + 1))
    }
    return elements
  }

  /// Reads the items of an object or array after its opening byte up to `close`, each through
  /// `item`, with commas between them; `what` names an item in the error after one.
  private mutating func items(
    closingWith close: UInt8, after what: String,
    _ item: (inout JSONParser) throws(JSONSyntaxError) -> Void
  ) throws(JSONSyntaxError) {
    index += 1
    skipWhitespace()
    if current == close {
      index += 1
      return
    }
    while true {
      try item(&self)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case close:
        index += 1
        return
      default: throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what)")
      }
    }
  }

  /// A number as `NumberSpelling` reads it (JSON's grammar is that one).
  private mutating func number() throws(JSONSyntaxError) -> JSONNode.Value {
    let start = index
    switch NumberSpelling.scan(bytes, from: start) {
    case .success(let end): index = end
    case .failure(.noDigit(let end)):
      index = end
      throw error("expected a digit")
    case .failure(.noFractionDigit(let end)):
      index = end
      throw error("expected a digit after '.'")
    case .failure(.noExponentDigit(let end)):
      index = end
      throw error("expected a digit in the exponent")
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    return .number(text: text, value: Double(text) ?? .nan)
  }

  /// A string's text; bytes that are not UTF-8 become U+FFFD, or an error when `requiresUTF8`.
  private mutating func string() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    var text: [UInt8] = []
    while true {
      guard let byte = current else { throw error("expected '\"' to end the string") }
      guard byte >= 0x20 else { throw error("expected no control character in a string") }
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        if requiresUTF8, String(validating: text, as: UTF8.self) == nil {
          throw JSONSyntaxError(
            line: line, column: start - lineStart + 1, message: "a string that is not UTF-8")
        }
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"): text += Array(String(try escape()).utf8)
      default: text.append(byte)
      }
    }
  }

  /// The character of an escape sequence after its backslash.
  private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
    guard let byte = current else { throw error("expected an escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hexQuad()
      if (0xD800..<0xDC00).contains(high) {
        guard current == UInt8(ascii: "\\") else { throw error("expected a low surrogate") }
        index += 1
        guard current == UInt8(ascii: "u") else { throw error("expected a low surrogate") }
        index += 1
        let low = try hexQuad()
        guard (0xDC00..<0xE000).contains(low) else { throw error("expected a low surrogate") }
        let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        guard let scalar = Unicode.Scalar(combined) else { throw error("expected a character") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(high) else { throw error("expected a high surrogate") }
      return scalar
    default:
      index -= 1
      throw error("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
    }
  }

  private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Self.hexDigit(byte) else {
        throw error("expected four hex digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }
}
