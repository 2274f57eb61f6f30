import InputFiles

/// The fields of one request object as a command reads them: each read is checked against what
/// the command expects, and a refusal names the command, the field and the expectation.
struct ControlRequestFields {
  /// The longest piece of a client's text quoted back in an error.
  static let quotedLength = 40

  let command: String
  let members: [String: JSONValue]
  let idJSON: String?

  /// Refuses the fields that are neither `cmd`, `id` nor one of `known`.
  func rejectUnknown(known: [String]) throws(ControlRequestError) {
    let allowed = Set(known + ["cmd", "id"])
    guard let unknown = members.keys.filter({ !allowed.contains($0) }).min() else { return }
    let expected = known.isEmpty ? "no fields" : known.joined(separator: ", ")
    throw refusal("unknown field \(Self.quoted(unknown, quote: "'")); expected \(expected)")
  }

  func has(_ key: String) -> Bool { members[key] != nil }

  /// A refusal of this request.
  func refusal(_ message: String) -> ControlRequestError {
    ControlRequestError(message: "\(command): \(message)", idJSON: idJSON)
  }

  /// A refusal of the value of `key`.
  func refusal(_ key: String, expected: String) -> ControlRequestError {
    let got = members[key].map(Self.describe) ?? "nothing"
    return refusal("'\(key)' expected \(expected), got \(got)")
  }

  /// The value of `key`, or a refusal naming what was expected when it is missing.
  func required(_ key: String, _ expectation: String) throws(ControlRequestError) -> JSONValue {
    guard let value = members[key] else {
      throw refusal("missing field '\(key)'; expected \(expectation)")
    }
    return value
  }

  /// A finite number in `range` (above its lower bound when `exclusiveLower`).
  func number(
    _ key: String, in range: ClosedRange<Double>, exclusiveLower: Bool = false,
    required isRequired: Bool = false
  ) throws(ControlRequestError) -> Double? {
    let expectation = Self.expectation(range, exclusiveLower: exclusiveLower)
    guard let value = members[key] else {
      if isRequired { throw refusal("missing field '\(key)'; expected \(expectation)") }
      return nil
    }
    try rejectNonFinite(key)
    guard case .number(let number) = value, range.contains(number),
      !exclusiveLower || number > range.lowerBound
    else { throw refusal(key, expected: expectation) }
    return number
  }

  /// Refuses a number no `Double` holds (`1e400`), which JSON allows but a field cannot take.
  func rejectNonFinite(_ key: String) throws(ControlRequestError) {
    if case .number(let number) = members[key], !number.isFinite {
      throw refusal("'\(key)' is not a finite number")
    }
  }

  /// A whole number in `range`.
  func wholeNumber(_ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int? {
    guard let value = members[key] else { return nil }
    try rejectNonFinite(key)
    guard case .number(let number) = value, number == number.rounded(),
      number >= Double(range.lowerBound), number <= Double(range.upperBound)
    else {
      throw refusal(
        key, expected: "a whole number in \(range.lowerBound)...\(range.upperBound)")
    }
    return Int(number)
  }

  /// A string.
  func string(_ key: String, _ expectation: String = "a string", required isRequired: Bool = false)
    throws(ControlRequestError) -> String?
  {
    guard let value = members[key] else {
      if isRequired { throw refusal("missing field '\(key)'; expected \(expectation)") }
      return nil
    }
    guard case .string(let text) = value else { throw refusal(key, expected: expectation) }
    // Paths and names end at a NUL in the system: the text would be cut there.
    guard !text.utf8.contains(0) else {
      throw refusal(key, expected: "\(expectation) without a NUL character")
    }
    return text
  }

  /// One of the raw values of `Choice`.
  func choice<Choice: RawRepresentable & CaseIterable>(
    _ key: String, required isRequired: Bool = false, as: Choice.Type = Choice.self
  ) throws(ControlRequestError) -> Choice? where Choice.RawValue == String {
    let expectation = "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", ")
    guard let text = try string(key, expectation, required: isRequired) else { return nil }
    guard let choice = Choice(rawValue: text) else { throw refusal(key, expected: expectation) }
    return choice
  }

  /// One of the raw values of `Choice`, required.
  func requiredChoice<Choice: RawRepresentable & CaseIterable>(
    _ key: String, as type: Choice.Type = Choice.self
  ) throws(ControlRequestError) -> Choice where Choice.RawValue == String {
    guard let choice = try choice(key, required: true, as: type) else {
      throw refusal(
        key, expected: "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return choice
  }

  /// `true` or `false`.
  func bool(_ key: String) throws(ControlRequestError) -> Bool? {
    guard let value = members[key] else { return nil }
    guard case .bool(let flag) = value else { throw refusal(key, expected: "true or false") }
    return flag
  }

  /// `a number in -90...90`, `a number above 0 and at most 99.9`.
  static func expectation(_ range: ClosedRange<Double>, exclusiveLower: Bool) -> String {
    let lower = text(range.lowerBound)
    let upper = text(range.upperBound)
    if exclusiveLower { return "a number above \(lower) and at most \(upper)" }
    if range.upperBound == .greatestFiniteMagnitude { return "a number of at least \(lower)" }
    return "a number in \(lower)...\(upper)"
  }

  /// A bound as people write it: `1000` rather than `1000.0`.
  static func text(_ value: Double) -> String {
    NumberSpelling.text(value)
  }

  /// A short description of a client's value for an error: the number, the quoted string (cut
  /// to `quotedLength` characters, escaped so that it stays one line), or its kind.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .number(let number): return text(number)
    case .string(let string): return quoted(string, quote: "\"")
    case .bool(let flag): return flag ? "true" : "false"
    default: return value.kindName
    }
  }

  /// A client's text quoted and escaped as a JSON string would be, cut to `quotedLength`
  /// characters.
  static func quoted(_ string: String, quote: Character) -> String {
    let cut = string.count > quotedLength ? String(string.prefix(quotedLength)) + "…" : string
    let escaped = JSONText.string(cut).dropFirst().dropLast()
    return "\(quote)\(escaped)\(quote)"
  }
}
