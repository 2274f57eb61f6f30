extension JSONNode {
  /// The value of member `key` of an object (the first, for a key given twice); nil for a
  /// missing key or a node that is not an object.
  package subscript(key: String) -> JSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A short name of the value's kind, for messages.
  package var kindName: String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
