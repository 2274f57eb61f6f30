/// A JSON reader (RFC 8259) that takes its text from a `ByteSource` in chunks, for a caller that
/// keeps only what it needs of a large document (a GeoJSON track) instead of the whole tree.
///
/// The caller walks the document: `beginValue` says what the next value is (a scalar comes
/// whole, as a `JSONNode` with its line), `nextMember` and `nextElement` step through an object
/// or an array until it ends, `finish` checks that only white space follows. The grammar and
/// every error message carry the line and column; strings that are not UTF-8 have their bad
/// bytes replaced by U+FFFD, or are errors when `requiresUTF8`. Memory is one chunk of text,
/// plus the longest string or number. `JSONParser` builds whole trees with it.
package struct JSONStreamReader {
  /// What a value is, at its first byte.
  package enum Start {
    /// An object; step through its members with `nextMember`.
    case object
    /// An array; step through its elements with `nextElement`.
    case array
    /// A string, number, `true`, `false` or `null`, read whole.
    case scalar(JSONNode)
  }

  /// The bytes read from the source at a time.
  private static let chunkSize = 64 * 1024

  private let source: ByteSource
  /// The text read and not yet consumed (and what is consumed of the chunk before).
  private var buffer: [UInt8] = []
  /// The offset in the source of `buffer[0]`.
  private var bufferOffset = 0
  /// The next byte to read, in `buffer`.
  private var index = 0
  private var atEnd = false
  /// Strings that are not UTF-8 are errors (else their bad bytes become U+FFFD).
  private let requiresUTF8: Bool
  private var line = 1
  /// The offset in the source where `line` starts.
  private var lineStart = 0
  /// An object or array open: its closing byte, and whether an item was read in it.
  private struct Container {
    var close: UInt8
    var hasItem: Bool
  }

  /// The objects and arrays open.
  private var open: [Container] = []
  /// The line and column where the last value `beginValue` read starts.
  package private(set) var valueLine = 1
  /// The column (byte, from 1) where the last value `beginValue` read starts.
  package private(set) var valueColumn = 1

  /// A reader of the text in `source`, from its start (after a byte order mark).
  ///
  /// - Throws: `.file` when a read of the file fails.
  package init(_ source: ByteSource, requiresUTF8: Bool = false) throws(JSONStreamError) {
    self.source = source
    self.requiresUTF8 = requiresUTF8
    try fill(3)
    if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// How deep the reader is: the objects and arrays open.
  package var depth: Int { open.count }

  /// Reads the start of the next value: a scalar whole, or the opening of an object or array.
  ///
  /// - Throws: a syntax error, or `InputFileError.unreadable` when a read fails.
  package mutating func beginValue() throws(JSONStreamError) -> Start {
    try skipWhitespace()
    guard open.count < JSONParser.maximumDepth else {
      throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
    }
    valueLine = line
    valueColumn = bufferOffset + index - lineStart + 1
    guard let byte = try current() else { throw error("expected a value") }
    let value: JSONNode.Value
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      index += 1
      open.append(
        Container(
          close: byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"), hasItem: false))
      return byte == UInt8(ascii: "{") ? .object : .array
    case UInt8(ascii: "\""): value = .string(try string())
    case UInt8(ascii: "t"): value = try literal("true", .bool(true))
    case UInt8(ascii: "f"): value = try literal("false", .bool(false))
    case UInt8(ascii: "n"): value = try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try number()
    default: throw error("expected a value")
    }
    return .scalar(JSONNode(value: value, line: valueLine))
  }

  /// The key of the next member of the object open, its `:` read (the value is next); nil at
  /// the object's end, which is then closed.
  ///
  /// - Throws: a syntax error, or `InputFileError.unreadable` when a read fails.
  package mutating func nextMember() throws(JSONStreamError) -> String? {
    guard try nextItem(after: "a member") else { return nil }
    try skipWhitespace()
    guard try current() == UInt8(ascii: "\"") else {
      throw error("expected a key in double quotes")
    }
    let key = try string()
    try skipWhitespace()
    guard try current() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
    index += 1
    return key
  }

  /// True when the array open has another element (read next); false at its end, which is then
  /// closed.
  ///
  /// - Throws: a syntax error, or `InputFileError.unreadable` when a read fails.
  package mutating func nextElement() throws(JSONStreamError) -> Bool {
    try nextItem(after: "an element")
  }

  /// Reads the value that is next, whatever it holds, and forgets it.
  ///
  /// - Throws: a syntax error, or `InputFileError.unreadable` when a read fails.
  package mutating func skipValue() throws(JSONStreamError) {
    switch try beginValue() {
    case .scalar: return
    case .object: while try nextMember() != nil { try skipValue() }
    case .array: while try nextElement() { try skipValue() }
    }
  }

  /// Checks that only white space follows the document's value.
  ///
  /// - Throws: a syntax error, or `InputFileError.unreadable` when a read fails.
  package mutating func finish() throws(JSONStreamError) {
    try skipWhitespace()
    guard try current() == nil else { throw error("expected the end of the file") }
  }

  /// Steps past the comma before the next item of the container open, or its closing byte.
  private mutating func nextItem(after what: String) throws(JSONStreamError) -> Bool {
    try skipWhitespace()
    guard let last = open.last else { return false }
    let byte = try current()
    if byte == last.close {
      index += 1
      open.removeLast()
      return false
    }
    if last.hasItem {
      guard byte == UInt8(ascii: ",") else {
        throw error("expected ',' or '\(Character(Unicode.Scalar(last.close)))' after \(what)")
      }
      index += 1
    }
    open[open.count - 1].hasItem = true
    return true
  }

  /// The byte at `index`, reading on when the buffer is used up; nil at the end of the text.
  private mutating func current() throws(JSONStreamError) -> UInt8? {
    if index < buffer.count { return buffer[index] }
    try fill(1)
    return index < buffer.count ? buffer[index] : nil
  }

  /// Reads until `count` bytes from `index` are in the buffer, or the text ends; the bytes
  /// before `index` are let go.
  private mutating func fill(_ count: Int) throws(JSONStreamError) {
    while buffer.count - index < count, !atEnd {
      if index > 0 {
        buffer.removeSubrange(..<index)
        bufferOffset += index
        index = 0
      }
      let chunk: [UInt8]
      do {
        chunk = try source.bytes(at: bufferOffset + buffer.count, count: Self.chunkSize)
      } catch {
        throw .file(error)
      }
      if chunk.isEmpty { atEnd = true }
      buffer += chunk
    }
  }

  private func error(_ expected: String) -> JSONStreamError {
    let found: String
    if index < buffer.count {
      let byte = buffer[index]
      found =
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
    } else {
      found = "the end of the file"
    }
    return .syntax(
      JSONSyntaxError(
        line: line, column: bufferOffset + index - lineStart + 1,
        message: "\(expected), got \(found)"))
  }

  private mutating func skipWhitespace() throws(JSONStreamError) {
    while let byte = try current(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      index += 1
      if byte == 0x0A {
        line += 1
        lineStart = bufferOffset + index
      }
    }
  }

  private mutating func literal(
    _ word: String, _ value: JSONNode.Value
  ) throws(JSONStreamError) -> JSONNode.Value {
    for byte in word.utf8 {
      guard try current() == byte else { throw error("expected '\(word)'") }
      index += 1
    }
    return value
  }

  /// A number as `NumberSpelling` reads it, its bytes all in the buffer first.
  private mutating func number() throws(JSONStreamError) -> JSONNode.Value {
    var length = 0
    while true {
      if index + length >= buffer.count { try fill(length + 1) }
      guard index + length < buffer.count, Self.isNumberByte(buffer[index + length]) else {
        break
      }
      length += 1
    }
    let start = index
    switch NumberSpelling.scan(buffer, from: start) {
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
    let text = String(decoding: buffer[start..<index], as: UTF8.self)
    return .number(text: text, value: Double(text) ?? .nan)
  }

  /// True for the bytes a number may hold: digits, signs, the point and the exponent's `e`.
  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x2B, 0x2D, 0x2E, 0x45, 0x65: return true
    default: return false
    }
  }

  /// A string's text; bytes that are not UTF-8 become U+FFFD, or an error when `requiresUTF8`.
  private mutating func string() throws(JSONStreamError) -> String {
    let column = bufferOffset + index - lineStart + 1
    index += 1
    var text: [UInt8] = []
    while true {
      guard let byte = try current() else { throw error("expected '\"' to end the string") }
      guard byte >= 0x20 else { throw error("expected no control character in a string") }
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        if requiresUTF8, String(validating: text, as: UTF8.self) == nil {
          throw .syntax(
            JSONSyntaxError(line: line, column: column, message: "a string that is not UTF-8"))
        }
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"): text += Array(String(try escape()).utf8)
      default: text.append(byte)
      }
    }
  }

  /// The character of an escape sequence after its backslash.
  private mutating func escape() throws(JSONStreamError) -> Unicode.Scalar {
    guard let byte = try current() else { throw error("expected an escape") }
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
        guard try current() == UInt8(ascii: "\\") else { throw error("expected a low surrogate") }
        index += 1
        guard try current() == UInt8(ascii: "u") else { throw error("expected a low surrogate") }
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

  private mutating func hexQuad() throws(JSONStreamError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = try current(), let digit = Self.hexDigit(byte) else {
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

/// Why `JSONStreamReader` stopped: the text is not JSON, or the file could not be read.
package enum JSONStreamError: Error {
  /// What was found where.
  case syntax(JSONSyntaxError)
  /// The read that failed.
  case file(InputFileError)

  /// The syntax error; a failed read (which bytes in memory never give) at line 1, column 1.
  var syntaxError: JSONSyntaxError {
    switch self {
    case .syntax(let error): return error
    case .file(let error): return JSONSyntaxError(line: 1, column: 1, message: "\(error)")
    }
  }
}
