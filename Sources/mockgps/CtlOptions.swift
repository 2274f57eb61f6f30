import Control
import InputFiles
import MockGPS
import SystemIO

/// The arguments of `mockgps ctl [--control PATH|--link LINK] [--json] COMMAND ARGS`: where the
/// socket is, and the request line to send, built from positional sugar for the common commands
/// and generic `key=value` pairs for every field (so that ctl never falls behind the protocol).
struct CtlOptions: Equatable {
  /// The socket's path.
  var socketPath: String
  /// Print the raw reply lines.
  var printsJSON = false
  /// The request, as one JSON line without its newline.
  var requestLine: String
  /// The command's name (`cmd`).
  var command: String
  /// For `subscribe --count N`: stop after N epoch lines; nil: until the emulator stops.
  var subscriptionCount: Int?

  /// Parses `ctl`'s arguments.
  static func parse(_ arguments: [String]) throws(UsageError) -> CtlOptions {
    var socketPath: String?
    var linkPath: String?
    var printsJSON = false
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--json":
        printsJSON = true
      case "--control", "--link":
        guard index < arguments.count, !arguments[index].isEmpty else {
          throw UsageError(message: "missing value for '\(argument)' (expected a path)")
        }
        if argument == "--control" {
          socketPath = arguments[index]
        } else {
          linkPath = arguments[index]
        }
        index += 1
      default:
        rest = Array(arguments[(index - 1)...])
        index = arguments.count
      }
    }
    if socketPath != nil && linkPath != nil {
      throw UsageError(message: "options '--control' and '--link' exclude each other")
    }
    guard let command = rest.first else {
      throw UsageError(message: "missing command for 'ctl' (see 'mockgps ctl --help')")
    }
    guard ControlEnvelope.commands.contains(command) else {
      throw UsageError(
        message: "unknown command \(UsageError.quoted(command)) for 'ctl' (expected one of "
          + ControlEnvelope.commands.joined(separator: ", ") + ")")
    }
    var (fields, count) = try requestFields(command, Array(rest.dropFirst()))
    fields.insert(("cmd", .string(command)), at: 0)
    return CtlOptions(
      socketPath: socketPath
        ?? ControlSettings.defaultPath(
          forLink: linkPath ?? EmulatorConfiguration.defaultLinkPath),
      printsJSON: printsJSON, requestLine: ControlReply.Value.object(fields).json,
      command: command, subscriptionCount: count)
  }

  /// The fields of a request from its positional arguments and `key=value` pairs.
  private static func requestFields(_ command: String, _ arguments: [String])
    throws(UsageError) -> ([(String, ControlReply.Value)], Int?)
  {
    var positional: [String] = []
    var fields: [(String, ControlReply.Value)] = []
    var count: Int?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--loop" where command == "route":
        fields.append(("loop", .bool(true)))
      case "--speed" where command == "route", "--count" where command == "subscribe":
        guard index < arguments.count else {
          throw UsageError(message: "missing value for '\(argument)' (expected a number)")
        }
        let value = arguments[index]
        index += 1
        if argument == "--count" {
          guard let number = NumberSpelling.unsignedInteger(value), number > 0 else {
            throw UsageError.invalidValue(value, for: "--count", "expected a positive integer")
          }
          count = number
        } else {
          fields.append(("speed", try number(value, for: "--speed")))
        }
      case _ where argument.contains("=") && !argument.hasPrefix("-"):
        let key = String(argument[..<(argument.firstIndex(of: "=") ?? argument.endIndex)])
        let value = String(argument.dropFirst(key.count + 1))
        guard !key.isEmpty else {
          throw UsageError(
            message: "invalid argument \(UsageError.quoted(argument)) (expected key=value)")
        }
        fields.append((key, scalar(value)))
      default:
        positional.append(argument)
      }
    }
    return (try sugar(command, positional) + fields, count)
  }

  /// The fields the positional arguments of a command stand for.
  private static func sugar(_ command: String, _ values: [String]) throws(UsageError)
    -> [(String, ControlReply.Value)]
  {
    func expect(_ range: ClosedRange<Int>, _ what: String) throws(UsageError) {
      guard range.contains(values.count) else {
        throw UsageError(message: "'\(command)' takes \(what)")
      }
    }
    func numbers(_ names: [String], _ parts: [String]) throws(UsageError)
      -> [(String, ControlReply.Value)]
    {
      var result: [(String, ControlReply.Value)] = []
      for (name, part) in zip(names, parts) { result.append((name, try number(part, for: name))) }
      return result
    }
    switch command {
    case "position":
      let parts = values.count == 1 ? values[0].split(separator: ",").map(String.init) : values
      guard values.isEmpty || (2...3).contains(parts.count) else {
        throw UsageError(message: "'position' takes LAT LON [ALT] or LAT,LON[,ALT]")
      }
      return try numbers(["lat", "lon", "alt"], parts)
    case "velocity":
      try expect(0...3, "SPEED COURSE [CLIMB]")
      return try numbers(["speed", "course", "climb"], values)
    case "fix":
      try expect(0...1, "one MODE (none, 2d, 3d, dgps, rtk-float, rtk-fixed)")
      return values.map { ("mode", .string($0)) }
    case "satellites":
      try expect(0...1, "N or all")
      return try values.map { (value) throws(UsageError) in
        ("used", value == "all" ? .string("all") : try number(value, for: "satellites"))
      }
    case "dop":
      if values == ["reset"] { return [("reset", .bool(true))] }
      if values.first == "scale" {
        guard values.count == 2 else { throw UsageError(message: "'dop scale' takes X") }
        return [("scale", try number(values[1], for: "scale"))]
      }
      try expect(0...3, "H V P, scale X or reset")
      return try numbers(["hdop", "vdop", "pdop"], values)
    case "seek":
      try expect(0...1, "SECONDS")
      return try numbers(["time"], values)
    case "scale":
      try expect(0...1, "FACTOR")
      return try numbers(["factor"], values)
    case "rate":
      try expect(0...1, "HZ")
      return try numbers(["hz"], values)
    case "route":
      try expect(0...1, "FILE [--speed M/S] [--loop]")
      // The daemon may run elsewhere (`/` under systemd): a relative path is the caller's.
      return values.map { ("file", .string(WorkingDirectory.absolute($0))) }
    case "override":
      try expect(0...2, "MODE [LAT,LON[,ALT] | NORTH,EAST]")
      guard let mode = values.first else { return [] }
      var fields: [(String, ControlReply.Value)] = [("mode", .string(mode))]
      if values.count == 2 {
        let parts = values[1].split(separator: ",").map(String.init)
        let names =
          mode == "offset" && parts.count == 2 ? ["north", "east"] : ["lat", "lon", "alt"]
        fields += try numbers(names, parts)
      }
      return fields
    case "inject":
      try expect(0...2, "FAULT [SECONDS]")
      var fields: [(String, ControlReply.Value)] = values.prefix(1).map { ("fault", .string($0)) }
      if values.count == 2 { fields.append(("duration", try number(values[1], for: "duration"))) }
      return fields
    default:
      try expect(0...0, "no positional arguments (use key=value)")
      return []
    }
  }

  private static func number(_ text: String, for name: String) throws(UsageError)
    -> ControlReply.Value
  {
    guard let value = NumberSpelling.decimal(text) else {
      throw UsageError.invalidValue(text, for: name, "expected a number")
    }
    if NumberSpelling.isInteger(text), let integer = Int64(text) { return .integer(integer) }
    return .number(value, digits: 12)
  }

  /// A `key=value` value: a number, true, false or null as JSON, anything else as a string.
  private static func scalar(_ text: String) -> ControlReply.Value {
    switch text {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    default: return (try? number(text, for: "")) ?? .string(text)
    }
  }
}
