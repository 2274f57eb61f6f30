import Geodesy
import InputFiles
import Simulation

extension ControlEnvelope {
  /// Every command, as `cmd` names it (the names of `ControlCommand.all`).
  public static var commands: [String] { ControlCommand.names }
  /// The longest duration, seek time or offset accepted, seconds.
  static let maximumSeconds = 1e9

  /// The envelope of a parsed line.
  static func decode(_ value: JSONValue) throws(ControlRequestError) -> ControlEnvelope {
    guard case .object(let members) = value else {
      throw ControlRequestError(
        message: "expected a JSON object such as {\"cmd\":\"status\"}, got \(value.kindName)",
        idJSON: nil)
    }
    let idJSON = try Self.idJSON(members["id"])
    let names = commands.joined(separator: ", ")
    guard let command = members["cmd"] else {
      throw ControlRequestError(
        message: "missing field 'cmd'; expected one of \(names)", idJSON: idJSON)
    }
    guard case .string(let name) = command, ControlCommand.named(name) != nil else {
      let given: String
      if case .string(let name) = command {
        given = "unknown command \(ControlRequestFields.quoted(name, quote: "'"))"
      } else {
        given = "'cmd' is \(command.kindName)"
      }
      throw ControlRequestError(message: "\(given); expected one of \(names)", idJSON: idJSON)
    }
    let fields = ControlRequestFields(command: name, members: members, idJSON: idJSON)
    return ControlEnvelope(request: try ControlRequest(fields), idJSON: idJSON)
  }

  /// The JSON text of an `id`: a string, number, boolean or null.
  static func idJSON(_ value: JSONValue?) throws(ControlRequestError) -> String? {
    switch value {
    case nil: return nil
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .string(let text): return JSONText.string(text)
    case .number(let number) where number.isFinite:
      return NumberSpelling.text(number)
    case .some(let value):
      throw ControlRequestError(
        message: "'id' expected a string, number, boolean or null, got \(value.kindName)",
        idJSON: nil)
    }
  }
}

extension ControlRequest {
  /// The request a command's fields make, decoded as its row of `ControlCommand.all` says.
  init(_ fields: ControlRequestFields) throws(ControlRequestError) {
    guard let command = ControlCommand.named(fields.command) else {
      throw fields.refusal("unknown command")
    }
    self = try command.decode(fields)
  }

  /// `lat`, `lon` (both required when `required`) and `alt`.
  static func position(_ fields: ControlRequestFields, required: Bool)
    throws(ControlRequestError) -> (latitude: Double?, longitude: Double?, altitude: Double?)
  {
    let latitude = try fields.number("lat", in: -90...90, required: required)
    let longitude = try fields.number("lon", in: -180...180, required: required)
    let altitude = try fields.number("alt", in: -1000...100_000)
    return (latitude, longitude, altitude)
  }

  /// `used`: 0 to 64, or `"all"` or null for every satellite.
  static func satellitesUsed(_ fields: ControlRequestFields) throws(ControlRequestError) -> Int? {
    let expectation = "a whole number in 0...64, \"all\" or null"
    switch try fields.required("used", expectation) {
    case .null: return nil
    case .string("all"): return nil
    case .number: return try fields.wholeNumber("used", in: 0...64)
    default: throw fields.refusal("used", expected: expectation)
    }
  }

  /// `scale`, DOP values (`hdop`, `vdop`, optional `pdop`), or `reset`.
  static func dop(_ fields: ControlRequestFields) throws(ControlRequestError)
    -> Scenario.DOPChange?
  {
    let values = ["hdop", "vdop", "pdop"].filter(fields.has)
    if fields.has("reset") {
      guard try fields.bool("reset") == true else {
        throw fields.refusal("reset", expected: "true (omit it to set DOPs)")
      }
      guard !fields.has("scale"), values.isEmpty else {
        throw fields.refusal("expected either reset, scale or DOP values, not several")
      }
      return nil
    }
    if fields.has("scale") {
      guard values.isEmpty else {
        throw fields.refusal("expected either scale or DOP values, not both")
      }
      return .scale(try fields.number("scale", in: 0...1000, exclusiveLower: true) ?? 1)
    }
    guard !values.isEmpty else {
      throw fields.refusal("expected hdop and vdop (pdop optional), scale, or reset: true")
    }
    let horizontal =
      try fields.number("hdop", in: 0...99.9, exclusiveLower: true, required: true) ?? 1
    let vertical =
      try fields.number("vdop", in: 0...99.9, exclusiveLower: true, required: true) ?? 1
    let position =
      try fields.number("pdop", in: 0...99.9, exclusiveLower: true)
      ?? min(99.9, (horizontal * horizontal + vertical * vertical).squareRoot())
    return .values(horizontal: horizontal, vertical: vertical, position: position)
  }

  /// `mode` and what it takes: a position for `replace`, north/east meters or a position for
  /// `offset`.
  static func override(_ fields: ControlRequestFields) throws(ControlRequestError)
    -> OverrideRequest
  {
    let mode = try fields.requiredChoice("mode", as: OverrideRequest.Mode.self)
    switch mode {
    case .replace:
      try fields.rejectUnknown(known: ["mode", "lat", "lon", "alt"])
      return OverrideRequest(mode: mode, position: try Self.geodetic(fields))
    case .offset:
      try fields.rejectUnknown(known: ["mode", "north", "east", "lat", "lon", "alt"])
      let byMeters = fields.has("north") || fields.has("east")
      let byPosition = fields.has("lat") || fields.has("lon") || fields.has("alt")
      guard byMeters != byPosition else {
        throw fields.refusal("offset expected either north/east meters or lat/lon, not both")
      }
      if byPosition { return OverrideRequest(mode: mode, position: try Self.geodetic(fields)) }
      let range = -10_000_000.0...10_000_000
      return OverrideRequest(
        mode: mode, northMeters: try fields.number("north", in: range) ?? 0,
        eastMeters: try fields.number("east", in: range) ?? 0)
    case .off, .route, .freeze:
      try fields.rejectUnknown(known: ["mode"])
      return OverrideRequest(mode: mode)
    }
  }

  /// A position from `lat`, `lon` and `alt` (0 when absent).
  static func geodetic(_ fields: ControlRequestFields) throws(ControlRequestError)
    -> GeodeticPosition
  {
    let position = try Self.position(fields, required: true)
    return GeodeticPosition(
      known: position.latitude ?? 0, position.longitude ?? 0,
      altitudeMeters: position.altitude ?? 0)
  }
}
