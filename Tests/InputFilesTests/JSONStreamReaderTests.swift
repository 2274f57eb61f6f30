import InputFiles
import Testing

/// `JSONStreamReader` reads what `JSONParser` reads, and refuses what it refuses with the same
/// message at the same line and column, wherever its 64 KiB chunks cut the text.
@Suite struct JSONStreamReaderTests {
  /// A document as one line of text: every value with its line, members in order.
  static func render(_ node: JSONNode) -> String {
    switch node.value {
    case .object(let members):
      return "\(node.line){"
        + members.map { "\($0.key):\(render($0.value))" }.joined(separator: ",")
        + "}"
    case .array(let elements):
      return "\(node.line)[" + elements.map(render).joined(separator: ",") + "]"
    default: return "\(node.line)\(node.shortDescription)"
    }
  }

  /// The next value of `reader` rendered as `render` does.
  static func render(_ reader: inout JSONStreamReader) throws(JSONStreamError) -> String {
    let start = try reader.beginValue()
    let line = reader.valueLine
    switch start {
    case .scalar(let node): return "\(node.line)\(node.shortDescription)"
    case .object:
      var members: [String] = []
      while let key = try reader.nextMember() { members.append("\(key):\(try render(&reader))") }
      return "\(line){" + members.joined(separator: ",") + "}"
    case .array:
      var elements: [String] = []
      while try reader.nextElement() { elements.append(try render(&reader)) }
      return "\(line)[" + elements.joined(separator: ",") + "]"
    }
  }

  /// The document or the syntax error, from each reader.
  static func both(_ bytes: [UInt8]) -> (parsed: String, streamed: String) {
    let parsed: String
    do { parsed = render(try JSONParser.parse(bytes)) } catch {
      parsed = "\(error.line):\(error.column): \(error.message)"
    }
    let streamed: String
    do {
      var reader = try JSONStreamReader(.memory(bytes))
      streamed = try render(&reader)
      try reader.finish()
    } catch {
      switch error {
      case .syntax(let error): return (parsed, "\(error.line):\(error.column): \(error.message)")
      case .file(let error): return (parsed, "\(error)")
      }
    }
    return (parsed, streamed)
  }

  @Test(arguments: [
    #"{"a": [1, -2.5e3, true, false, null, "x\u00e9\ud83d\ude00\n"], "b": {}, "a": []}"#,
    "\u{FEFF}\n [\n1,\n 2]\n", #"{"a":1,}"#, "[1,]", "[1 2]", #"{"a" 1}"#, "{1:2}", #""abc"#,
    "tru", "-", "1.", "1e", "01", "[1]x", #""\x""#, #""\ud800""#, "\"a\u{1}\"", "", "[",
    String(repeating: "[", count: 70), "{\"a\":\n  [1, 2,\n  }",
  ])
  func readsAndRefusesAsTheParser(text: String) {
    let (parsed, streamed) = Self.both(Array(text.utf8))
    #expect(streamed == parsed)
  }

  /// A string with escapes, a number, a literal and an error placed across the first chunk's
  /// end at every offset.
  @Test func chunkEndsCutNothing() {
    let tail = Array(#" "ab\u00e9\ncd", 123.456e7, true, nul]"#.utf8)
    for pad in (65_536 - tail.count - 2)...65_536 {
      let bytes = [UInt8(ascii: "[")] + Array(repeating: 0x20, count: pad) + tail
      let (parsed, streamed) = Self.both(bytes)
      #expect(streamed == parsed, "padding \(pad)")
      #expect(parsed.hasSuffix("expected 'null', got ']'"))
    }
  }
}
