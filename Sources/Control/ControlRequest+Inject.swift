import Simulation

extension ControlRequest {
  /// The faults `inject` takes, with the fields each one reads besides `fault` and `duration`.
  /// The names are the scenario file's (`do`), plus the shortcuts `nofix`, `checksum`,
  /// `truncate` and `coldstart`.
  static let faults: [(name: String, fields: [String])] = [
    ("nofix", []), ("fix", ["mode"]), ("silence", []), ("corrupt", ["rate", "style"]),
    ("checksum", ["rate"]), ("truncate", ["rate"]), ("jump", ["north", "east", "up"]),
    ("noise", ["sigma", "time-constant", "tau"]), ("clock", ["offset", "week-rollover"]),
    ("cold-start", ["ttff"]), ("coldstart", ["ttff"]), ("outage", []),
  ]
  /// The time constant of `noise` when none is given, seconds.
  static let defaultNoiseTimeConstantSeconds = 60.0
  /// The time to first fix of `cold-start` when none is given, seconds.
  static let defaultTimeToFirstFixSeconds = 30.0

  /// `fault`, its fields, and `duration` (0 clears the fault; absent: until cleared).
  static func inject(_ fields: ControlRequestFields) throws(ControlRequestError) -> (
    Scenario.Action, Double?
  ) {
    let names = faults.map(\.name).joined(separator: ", ")
    let name = try fields.string("fault", "one of \(names)", required: true) ?? ""
    guard let fault = faults.first(where: { $0.name == name }) else {
      throw fields.refusal(
        "unknown fault \(ControlRequestFields.quoted(name, quote: "'")); expected one of \(names)")
    }
    try fields.rejectUnknown(known: ["fault", "duration"] + fault.fields)
    let duration = try fields.number("duration", in: 0...ControlEnvelope.maximumSeconds)
    return (try action(fault.name, fields), duration)
  }

  /// The action of a fault.
  static func action(_ name: String, _ fields: ControlRequestFields) throws(ControlRequestError)
    -> Scenario.Action
  {
    let offsets = -10_000_000.0...10_000_000
    switch name {
    case "nofix": return .fix(.none)
    case "fix":
      return .fix(try fields.requiredChoice("mode", as: Scenario.FixSetting.self))
    case "silence": return .silence
    case "outage": return .outage
    case "corrupt", "checksum", "truncate":
      let rate = try fields.number("rate", in: 0...1) ?? 1
      let style =
        name == "corrupt"
        ? try fields.choice("style", as: WireFaultKind.SentenceCorruption.self) ?? .checksum
        : WireFaultKind.SentenceCorruption(rawValue: name) ?? .checksum
      return .corrupt(rate: rate, style: style)
    case "jump":
      return .jump(
        northMeters: try fields.number("north", in: offsets) ?? 0,
        eastMeters: try fields.number("east", in: offsets) ?? 0,
        upMeters: try fields.number("up", in: offsets) ?? 0)
    case "noise":
      if fields.has("time-constant") && fields.has("tau") {
        throw fields.refusal("expected either time-constant or tau, not both")
      }
      let sigma = try fields.number("sigma", in: 0...100_000, required: true) ?? 0
      let timeConstantRange = 0...GaussMarkovNoise.maximumTimeConstantSeconds
      let named = try fields.number("time-constant", in: timeConstantRange)
      let tau = try fields.number("tau", in: timeConstantRange)
      let timeConstant = named ?? tau ?? defaultNoiseTimeConstantSeconds
      return .noise(sigmaMeters: sigma, timeConstantSeconds: timeConstant)
    case "clock":
      if try fields.bool("week-rollover") == true {
        guard !fields.has("offset") else {
          throw fields.refusal("expected either offset or week-rollover, not both")
        }
        return .clock(offsetNanoseconds: FixFaultKind.weekRolloverNanoseconds)
      }
      guard fields.has("offset") else {
        throw fields.refusal(
          "missing field 'offset'; expected a number of seconds, or \"week-rollover\": true")
      }
      let offset = try fields.number("offset", in: offsets) ?? 0
      return .clock(offsetNanoseconds: Int64((offset * 1e9).rounded()))
    default:
      let ttff = try fields.number("ttff", in: 0...3600, exclusiveLower: true)
      let seconds = ttff ?? defaultTimeToFirstFixSeconds
      return .coldStart(timeToFirstFixNanoseconds: Int64((seconds * 1e9).rounded()))
    }
  }
}
