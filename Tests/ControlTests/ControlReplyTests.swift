import Control
import Testing

/// Reply lines: compact JSON in the given order.
@Suite struct ControlReplyTests {
  @Test func anAcceptanceHasOKFirstThenTheIDThenTheFieldsInOrder() {
    let reply = ControlReply.ok(
      [("zeta", .integer(1)), ("alpha", .bool(false)), ("mid", .null)], id: #""r1""#)
    #expect(reply.line == #"{"ok":true,"id":"r1","zeta":1,"alpha":false,"mid":null}"# + "\n")
    #expect(ControlReply.ok().line == "{\"ok\":true}\n")
  }

  @Test func aRefusalCarriesItsError() {
    #expect(
      ControlReply.refused("fix: bad", id: "7").line == #"{"ok":false,"id":7,"error":"fix: bad"}"#
        + "\n")
  }

  @Test func stringsAreEscaped() {
    let value = ControlReply.Value.string("a\"b\\c\nd\re\tf\u{1}g\u{7F}h/ü→😀")
    #expect(value.json == #""a\"b\\c\nd\re\tf\u0001g\u007fh/ü→😀""#)
    #expect(ControlReply.Value.string("\u{8}\u{C}").json == #""\b\f""#)
  }

  @Test func numbersHaveNoTrailingZeros() {
    func json(_ value: Double, _ digits: Int) -> String {
      ControlReply.Value.number(value, digits: digits).json
    }
    #expect(json(12.5, 3) == "12.5")
    #expect(json(3, 6) == "3")
    #expect(json(-0.25, 2) == "-0.25")
    #expect(json(-0.001, 2) == "0")
    #expect(json(51.477928123, 6) == "51.477928")
    #expect(json(0.1 + 0.2, 9) == "0.3")
    #expect(json(1.005, 0) == "1")
    #expect(json(0.05, 2) == "0.05")
    #expect(json(1e300, 3) == "1e+300")
    #expect(json(.nan, 3) == "null")
    #expect(json(.infinity, 3) == "null")
    #expect(json(-.infinity, 3) == "null")
  }

  @Test func nestedValues() {
    let value = ControlReply.Value.object([
      ("b", .array([.integer(-3), .string("x"), .object([])])), ("a", .array([])),
    ])
    #expect(value.json == #"{"b":[-3,"x",{}],"a":[]}"#)
    #expect(
      value
        == .object([("b", .array([.integer(-3), .string("x"), .object([])])), ("a", .array([]))]))
  }

  @Test func aReplyIsValidJSONForTheDecoder() throws {
    // The decoder reads back what the encoder writes: an id with every escape survives.
    let id = ControlReply.Value.string("q\"\\\n\u{0}é").json
    let line = ControlReply.ok(id: id).line
    let envelope = try ControlEnvelope.decode(
      line: Array((#"{"cmd":"status","id":"# + id + "}").utf8))
    #expect(envelope.idJSON == id)
    #expect(line.hasSuffix("}\n"))
  }
}
