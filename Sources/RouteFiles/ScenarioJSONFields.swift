import Geodesy
import InputFiles

/// The problems found in one scenario file, each with its line and JSON path, up to
/// `InputFileError.diagnosticLimit`.
final class ScenarioDiagnostics {
  let file: String
  private(set) var list: [InputDiagnostic] = []

  init(file: String) {
    self.file = file
  }

  /// Records a problem with the value at `path`, found on the line of `node`; line breaks and
  /// other control characters from the file are escaped, so that it stays one line.
  func report(_ node: JSONNode?, _ path: String, _ message: String) {
    guard list.count < InputFileError.diagnosticLimit else { return }
    let location = InputLocation(file: file, line: node?.line, jsonPath: JSONNode.printable(path))
    list.append(InputDiagnostic(location, JSONNode.printable(message)))
  }
}

/// What a number must be, and how a message says so.
enum NumberRule {
  /// Any number in the range.
  case within(ClosedRange<Double>)
  /// Above 0 and at most the bound.
  case positive(upTo: Double)

  func allows(_ value: Double) -> Bool {
    switch self {
    case .within(let range): return range.contains(value)
    case .positive(let bound): return value > 0 && value <= bound
    }
  }

  /// `a number in 0...1`, `a number above 0 and at most 5000`.
  var expectation: String {
    switch self {
    case .within(let range):
      return "a number in \(Self.text(range.lowerBound))...\(Self.text(range.upperBound))"
    case .positive(let bound): return "a number above 0 and at most \(Self.text(bound))"
    }
  }

  /// A bound as people write it: `1000` rather than `1000.0`.
  static func text(_ value: Double) -> String {
    NumberSpelling.text(value)
  }
}

/// The members of one JSON object as they are read: each read marks its key, so that `finish()`
/// can report the keys nobody asked for.
struct JSONObjectFields {
  let node: JSONNode
  let path: String
  let diagnostics: ScenarioDiagnostics
  private let members: [JSONNode.Member]
  private var read: Set<String> = []

  /// The fields of `node`; nil, with a diagnostic, when it is not an object. Every key given
  /// twice is reported.
  init?(_ node: JSONNode, path: String, diagnostics: ScenarioDiagnostics) {
    guard case .object(let members) = node.value else {
      diagnostics.report(node, path, "expected an object, got \(node.shortDescription)")
      return nil
    }
    self.node = node
    self.path = path
    self.diagnostics = diagnostics
    self.members = members
    var seen: Set<String> = []
    for member in members where !seen.insert(member.key).inserted {
      diagnostics.report(member.value, childPath(member.key), "given twice; give each field once")
    }
  }

  /// The path of a member: `timeline[2].mode`.
  func childPath(_ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  /// True when the object has the key.
  func has(_ key: String) -> Bool {
    members.contains { $0.key == key }
  }

  /// The value of a key, marking it read; a missing required key is reported with what was
  /// expected.
  mutating func value(_ key: String, required expectation: String? = nil) -> JSONNode? {
    read.insert(key)
    guard let member = members.first(where: { $0.key == key }) else {
      if let expectation {
        diagnostics.report(node, childPath(key), "missing; expected \(expectation)")
      }
      return nil
    }
    return member.value
  }

  /// Reports every key that was not read as unknown, listing the known ones.
  func finish(known: [String]) {
    for member in members where !read.contains(member.key) {
      diagnostics.report(
        member.value, childPath(member.key),
        "unknown field; expected one of \(known.joined(separator: ", "))")
    }
  }

  /// A number following `rule`.
  mutating func number(_ key: String, _ rule: NumberRule, required: Bool = false) -> Double? {
    value(key, required: required ? rule.expectation : nil).flatMap {
      Self.number($0, childPath(key), rule, diagnostics)
    }
  }

  /// A duration in seconds following `rule`, as nanoseconds.
  mutating func seconds(_ key: String, _ rule: NumberRule, required: Bool = false) -> Int64? {
    number(key, rule, required: required).map { Int64(($0 * 1e9).rounded()) }
  }

  /// A string.
  mutating func string(_ key: String, required expectation: String? = nil) -> String? {
    guard let node = value(key, required: expectation) else { return nil }
    guard case .string(let text) = node.value else {
      diagnostics.report(
        node, childPath(key), "expected \(expectation ?? "a string"), got \(node.shortDescription)")
      return nil
    }
    // Paths end at a NUL in the system: a file's path would be cut there.
    guard !text.utf8.contains(0) else {
      diagnostics.report(
        node, childPath(key),
        "expected \(expectation ?? "a string") without a NUL character, got "
          + node.shortDescription)
      return nil
    }
    return text
  }

  /// One of the raw values of `Choice`.
  mutating func choice<Choice: RawRepresentable & CaseIterable>(
    _ key: String, required: Bool = false
  ) -> Choice? where Choice.RawValue == String {
    let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
    let expectation = "one of \(names)"
    guard let node = value(key, required: required ? expectation : nil) else { return nil }
    guard case .string(let text) = node.value, let choice = Choice(rawValue: text) else {
      diagnostics.report(
        node, childPath(key), "expected \(expectation), got \(node.shortDescription)")
      return nil
    }
    return choice
  }

  /// `true` or `false`.
  mutating func bool(_ key: String) -> Bool? {
    guard let node = value(key) else { return nil }
    guard case .bool(let flag) = node.value else {
      diagnostics.report(
        node, childPath(key), "expected true or false, got \(node.shortDescription)")
      return nil
    }
    return flag
  }

  /// A position `[latitude, longitude]` or `[latitude, longitude, altitude]`: degrees, meters;
  /// `defaultAltitude` when the altitude is left out.
  mutating func position(
    _ key: String, required: Bool = false, defaultAltitude: Double = 0
  ) -> GeodeticPosition? {
    let expectation = "[latitude, longitude] or [latitude, longitude, altitude]"
    guard let node = value(key, required: required ? expectation : nil) else { return nil }
    let path = childPath(key)
    guard case .array(let elements) = node.value, (2...3).contains(elements.count) else {
      diagnostics.report(node, path, "expected \(expectation), got \(node.shortDescription)")
      return nil
    }
    let rules: [NumberRule] = [.within(-90...90), .within(-180...180), .within(-1000...100_000)]
    let numbers = elements.enumerated().map { index, element in
      Self.number(element, "\(path)[\(index)]", rules[index], diagnostics)
    }
    guard numbers.allSatisfy({ $0 != nil }) else { return nil }
    let values = numbers.compactMap { $0 }
    return try? GeodeticPosition(
      latitude: values[0], longitude: values[1],
      altitudeMeters: values.count > 2 ? values[2] : defaultAltitude)
  }

  /// The number a node holds, if it follows `rule`; otherwise a diagnostic.
  static func number(
    _ node: JSONNode, _ path: String, _ rule: NumberRule, _ diagnostics: ScenarioDiagnostics
  ) -> Double? {
    guard case .number(_, let value) = node.value, value.isFinite, rule.allows(value) else {
      diagnostics.report(node, path, "expected \(rule.expectation), got \(node.shortDescription)")
      return nil
    }
    return value
  }
}
