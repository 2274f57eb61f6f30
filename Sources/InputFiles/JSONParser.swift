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

/// JSON documents read whole, as trees of `JSONNode` (members in file order, duplicate keys
/// kept, each value with its line), by `JSONStreamReader`: one grammar and one set of error
/// messages for every JSON the project reads, streamed or whole.
package enum JSONParser {
  /// The deepest nesting accepted; scenario files need five levels.
  package static let maximumDepth = 64

  /// Parses a whole document: one value, with only whitespace around it. Strings that are not
  /// UTF-8 are errors when `requiresUTF8`, else their bad bytes become U+FFFD.
  package static func parse(
    _ bytes: [UInt8], requiresUTF8: Bool = false
  ) throws(JSONSyntaxError) -> JSONNode {
    do {
      var reader = try JSONStreamReader(.memory(bytes), requiresUTF8: requiresUTF8)
      let node = try tree(&reader)
      try reader.finish()
      return node
    } catch {
      throw error.syntaxError
    }
  }

  /// The keys of the top-level object in file order, read as far as the text is JSON: a text
  /// cut short or broken further on still names the keys before the break. The reading ends
  /// after a key of `stops`. Nil when the text does not start as an object.
  package static func topLevelKeys(_ bytes: [UInt8], stoppingAt stops: Set<String> = [])
    -> [String]?
  {
    guard startsAsObject(bytes) else { return nil }
    var keys: [String] = []
    do {
      var reader = try JSONStreamReader(.memory(bytes))
      _ = try reader.beginValue()
      while let key = try reader.nextMember() {
        keys.append(key)
        if stops.contains(key) { break }
        try reader.skipValue()
      }
    } catch {
      // The keys before the break.
    }
    return keys
  }

  /// True when the first byte past a byte order mark and white space is `{`.
  package static func startsAsObject(_ bytes: some Collection<UInt8>) -> Bool {
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes.dropFirst(0)
    return text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
  }

  /// The next value of `reader`, whole.
  private static func tree(_ reader: inout JSONStreamReader) throws(JSONStreamError) -> JSONNode {
    switch try reader.beginValue() {
    case .scalar(let node):
      return node
    case .object:
      let line = reader.valueLine
      var members: [JSONNode.Member] = []
      while let key = try reader.nextMember() {
        members.append(JSONNode.Member(key: key, value: try tree(&reader)))
      }
      return JSONNode(value: .object(members), line: line)
    case .array:
      let line = reader.valueLine
      var elements: [JSONNode] = []
      while try reader.nextElement() { elements.append(try tree(&reader)) }
      return JSONNode(value: .array(elements), line: line)
    }
  }
}
