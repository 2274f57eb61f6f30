extension JSONNode {
  /// The first key given twice in one object, at any depth, in text order: `JSONValue` and the
  /// node's subscript keep the first of two equal keys without a word, so a reader that must
  /// refuse them asks here.
  package var firstDuplicateKey: String? {
    switch value {
    case .object(let members):
      var seen: Set<String> = []
      for member in members {
        if !seen.insert(member.key).inserted { return member.key }
        if let key = member.value.firstDuplicateKey { return key }
      }
      return nil
    case .array(let elements):
      return elements.lazy.compactMap(\.firstDuplicateKey).first
    case .null, .bool, .number, .string:
      return nil
    }
  }
}
