import Geodesy
import Glibc
import Simulation

/// Reads the action of one timeline event: its `do`, the fields that action takes, and `for`
/// for the faults that last.
struct ScenarioActionReader {
  /// Every action, as `do` names it.
  static let actions = [
    "hold", "goto", "route", "fix", "dop", "satellites", "outage", "jump", "noise", "clock",
    "cold-start", "silence", "corrupt",
  ]
  /// The actions whose effect lasts `for` seconds, or until the next action of the same kind.
  static let lastingActions: Set = [
    "fix", "dop", "satellites", "outage", "jump", "noise", "clock", "silence", "corrupt",
  ]
  static let durationRule = NumberRule.positive(upTo: ScenarioFile.maximumOffsetSeconds)
  static let speedRule = NumberRule.positive(upTo: 5000)
  static let offsetRule = NumberRule.within(-10_000_000...10_000_000)

  let diagnostics: ScenarioDiagnostics
  let baseDirectory: String
  /// The altitude of a `goto` that gives none: where the previous move ended, or the start.
  let currentAltitude: Double

  /// The action of an event and its duration; nil, with diagnostics, when it is wrong.
  func action(_ fields: inout JSONObjectFields) -> (action: Scenario.Action, duration: Int64?)? {
    _ = fields.string("comment")
    let names = Self.actions.joined(separator: ", ")
    guard let node = fields.value("do", required: "one of \(names)") else { return nil }
    guard case .string(let name) = node.value, Self.actions.contains(name) else {
      diagnostics.report(
        node, fields.childPath("do"), "expected one of \(names), got \(node.shortDescription)")
      return nil
    }
    var known = ["at", "do", "comment"]
    var duration: Int64?
    if Self.lastingActions.contains(name) {
      duration = fields.seconds("for", Self.durationRule)
      known.append("for")
    }
    let action: Scenario.Action?
    switch name {
    case "hold": action = .hold
    case "goto":
      known += ["position", "speed"]
      let position = fields.position(
        "position", required: true, defaultAltitude: currentAltitude)
      let speed = fields.number("speed", Self.speedRule)
      action = position.map { .goto($0, speedMetersPerSecond: speed) }
    case "route":
      known += ["file", "speed"]
      let route = self.route(&fields)
      let speed = fields.number("speed", Self.speedRule)
      action = route.map { .route($0, speedMetersPerSecond: speed) }
    case "fix":
      known += ["mode"]
      action = (fields.choice("mode", required: true) as Scenario.FixSetting?).map { .fix($0) }
    case "dop":
      known += ["scale", "hdop", "vdop", "pdop"]
      action = dop(&fields).map { .dop($0) }
    case "satellites":
      known += ["count"]
      action = wholeNumber(&fields, "count", in: 0...99).map { .satellites(usedCount: $0) }
    case "jump":
      known += ["north", "east", "up", "distance", "bearing"]
      action = jump(&fields)
    case "noise":
      known += ["sigma", "time-constant"]
      let sigma = fields.number("sigma", .within(0...100_000), required: true)
      let timeConstant = fields.number(
        "time-constant", .within(0...GaussMarkovNoise.maximumTimeConstantSeconds))
      action = sigma.map { .noise(sigmaMeters: $0, timeConstantSeconds: timeConstant ?? 30) }
    case "clock":
      known += ["offset", "week-rollover"]
      action = clock(&fields)
    case "cold-start":
      known += ["ttff"]
      let ttff = fields.seconds("ttff", .positive(upTo: 3600)) ?? 30_000_000_000
      action = .coldStart(timeToFirstFixNanoseconds: ttff)
    case "silence": action = .silence
    case "outage": action = .outage
    default:
      known += ["rate", "style"]
      let rate = fields.number("rate", .within(0...1)) ?? 1
      let style: WireFaultKind.SentenceCorruption? = fields.choice("style")
      action = .corrupt(rate: rate, style: style ?? .checksum)
    }
    fields.finish(known: known)
    return action.map { ($0, duration) }
  }

  /// The route a `route` action names, read relative to the scenario's folder; the route
  /// file's own problems are reported at `file`.
  func route(_ fields: inout JSONObjectFields) -> Route? {
    guard let name = fields.string("file", required: "the path of a route file") else {
      return nil
    }
    let node = fields.value("file")
    let path = fields.childPath("file")
    guard !name.isEmpty else {
      diagnostics.report(node, path, "expected the path of a route file, got \"\"")
      return nil
    }
    do {
      let route = try RouteFile.load(path: ScenarioFile.resolve(name, against: baseDirectory))
      guard !route.points.isEmpty else {
        diagnostics.report(node, path, "expected a route with points, got none in '\(name)'")
        return nil
      }
      return route
    } catch {
      switch error {
      case .unreadable(let file, let reason):
        diagnostics.report(node, path, "cannot read route '\(file)': \(reason)")
      case .invalid(let problems):
        for problem in problems { diagnostics.report(node, path, problem.description) }
      }
      return nil
    }
  }

  /// Either a factor (`scale`) or values (`hdop`, `vdop`, optional `pdop`).
  func dop(_ fields: inout JSONObjectFields) -> Scenario.DOPChange? {
    let rule = NumberRule.positive(upTo: 99.99)
    if fields.has("scale") {
      for key in ["hdop", "vdop", "pdop"] where fields.has(key) {
        diagnostics.report(
          fields.value(key), fields.childPath(key), "expected either scale or DOP values, not both")
      }
      return fields.number("scale", .positive(upTo: 1000)).map { .scale($0) }
    }
    let horizontal = fields.number("hdop", rule, required: true)
    let vertical = fields.number("vdop", rule, required: true)
    let position = fields.number("pdop", rule)
    guard let horizontal, let vertical else { return nil }
    return .values(
      horizontal: horizontal, vertical: vertical,
      position: position ?? (horizontal * horizontal + vertical * vertical).squareRoot())
  }

  /// An offset `north`/`east`/`up` in meters, or `distance` meters towards `bearing` degrees
  /// (and `up`).
  func jump(_ fields: inout JSONObjectFields) -> Scenario.Action? {
    let up = fields.number("up", Self.offsetRule) ?? 0
    guard fields.has("distance") || fields.has("bearing") else {
      let north = fields.number("north", Self.offsetRule) ?? 0
      let east = fields.number("east", Self.offsetRule) ?? 0
      return .jump(northMeters: north, eastMeters: east, upMeters: up)
    }
    for key in ["north", "east"] where fields.has(key) {
      diagnostics.report(
        fields.value(key), fields.childPath(key),
        "expected either north/east or distance/bearing, not both")
    }
    let distance = fields.number("distance", .within(0...10_000_000), required: true)
    let bearing = fields.number("bearing", .within(0...360), required: true)
    guard let distance, let bearing else { return nil }
    let radians = bearing * .pi / 180
    return .jump(
      northMeters: distance * cos(radians), eastMeters: distance * sin(radians), upMeters: up)
  }

  /// A clock jump of `offset` seconds, or the week-rollover bug.
  func clock(_ fields: inout JSONObjectFields) -> Scenario.Action? {
    let path = fields.childPath("week-rollover")
    if fields.has("week-rollover") {
      guard let flag = fields.bool("week-rollover") else { return nil }
      guard flag else {
        diagnostics.report(
          fields.value("week-rollover"), path, "expected true (omit it for no rollover)")
        return nil
      }
      if fields.has("offset") {
        diagnostics.report(
          fields.value("offset"), fields.childPath("offset"),
          "expected either offset or week-rollover, not both")
      }
      return .clock(offsetNanoseconds: FixFaultKind.weekRolloverNanoseconds)
    }
    let expectation = "\(Self.offsetRule.expectation) of seconds, or \"week-rollover\": true"
    guard fields.value("offset", required: expectation) != nil else { return nil }
    return fields.seconds("offset", Self.offsetRule).map { .clock(offsetNanoseconds: $0) }
  }

  /// A whole number in `range`.
  func wholeNumber(
    _ fields: inout JSONObjectFields, _ key: String, in range: ClosedRange<Int>
  ) -> Int? {
    let expectation = "a whole number in \(range.lowerBound)...\(range.upperBound)"
    guard let node = fields.value(key, required: expectation) else { return nil }
    guard case .number(_, let value) = node.value, value == value.rounded(),
      value >= Double(range.lowerBound), value <= Double(range.upperBound)
    else {
      diagnostics.report(
        node, fields.childPath(key), "expected \(expectation), got \(node.shortDescription)")
      return nil
    }
    return Int(value)
  }
}
