/// One reply line: `{"ok":true,…fields}` or `{"ok":false,"error":"…"}`, with the request's
/// `id` echoed when it had one. Field order is kept as given.
public struct ControlReply: Hashable, Sendable {
  /// A JSON value of a reply, built by the server (no decoding needed).
  public indirect enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// Written with up to `digits` decimals, trailing zeros cut; not finite → null.
    case number(Double, digits: Int)
    case string(String)
    case array([Value])
    case object([(String, Value)])

    public static func == (lhs: Value, rhs: Value) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// The value as JSON text.
    public var json: String {
      var text = ""
      write(to: &text)
      return text
    }

    /// Appends the value's JSON text.
    func write(to text: inout String) {
      switch self {
      case .null: text += "null"
      case .bool(let flag): text += flag ? "true" : "false"
      case .integer(let value): text += String(value)
      case .number(let value, let digits): text += JSONText.number(value, digits: digits)
      case .string(let string): JSONText.appendString(string, to: &text)
      case .array(let elements):
        text += "["
        for (index, element) in elements.enumerated() {
          if index > 0 { text += "," }
          element.write(to: &text)
        }
        text += "]"
      case .object(let members):
        JSONText.appendObject(members, to: &text)
      }
    }
  }

  public var ok: Bool
  /// The fields after `ok` (for a refusal: `error`).
  public var fields: [(String, Value)]
  public var idJSON: String?

  public static func == (lhs: ControlReply, rhs: ControlReply) -> Bool { lhs.line == rhs.line }
  public func hash(into hasher: inout Hasher) { hasher.combine(line) }

  /// An acceptance with these fields.
  public static func ok(_ fields: [(String, Value)] = [], id: String? = nil) -> ControlReply {
    ControlReply(ok: true, fields: fields, idJSON: id)
  }

  /// A refusal.
  public static func refused(_ message: String, id: String? = nil) -> ControlReply {
    ControlReply(ok: false, fields: [("error", .string(message))], idJSON: id)
  }

  /// The reply as one JSON line, ending in "\n".
  public var line: String {
    var text = "{\"ok\":"
    text += ok ? "true" : "false"
    if let idJSON {
      text += ",\"id\":"
      text += idJSON
    }
    for (name, value) in fields {
      text += ","
      JSONText.appendString(name, to: &text)
      text += ":"
      value.write(to: &text)
    }
    text += "}\n"
    return text
  }
}
