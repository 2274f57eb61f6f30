/// Any JSON value as the control protocol walks it: `JSONNode` (the one JSON parser, which keeps
/// lines, member order and numbers as written) without those, objects as dictionaries.
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// A number; one no `Double` holds (`1e400`) is infinite, for the reader to refuse as not
  /// finite.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The value of a parsed node; of a key given twice, the first (`JSONNode.firstDuplicateKey`
  /// finds them).
  package init(_ node: JSONNode) {
    switch node.value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(_, let value): self = .number(value)
    case .string(let text): self = .string(text)
    case .array(let elements): self = .array(elements.map(JSONValue.init))
    case .object(let members):
      self = .object(
        Dictionary(members.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { a, _ in a })
      )
    }
  }

  /// Parses JSON text, or says why it is not JSON and where.
  public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONDecodingFailure> {
    do {
      return .success(JSONValue(try JSONParser.parse(bytes)))
    } catch {
      return .failure(
        JSONDecodingFailure(
          message: "\(error.message) at line \(error.line), column \(error.column)"))
    }
  }

  /// A short name of the value's kind, for messages (as `JSONNode.kindName`).
  public var kindName: String {
    switch self {
    case .null: return JSONNode(value: .null, line: 0).kindName
    case .bool(let flag): return JSONNode(value: .bool(flag), line: 0).kindName
    case .number(let number):
      return JSONNode(value: .number(text: "", value: number), line: 0).kindName
    case .string: return JSONNode(value: .string(""), line: 0).kindName
    case .array: return JSONNode(value: .array([]), line: 0).kindName
    case .object: return JSONNode(value: .object([]), line: 0).kindName
    }
  }

  /// The member `key` of an object; nil for a missing key or a value that is not an object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }
}

/// Why bytes are not JSON.
public struct JSONDecodingFailure: Error {
  /// One line saying what is wrong.
  public var message: String
}
