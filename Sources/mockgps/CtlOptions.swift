import Control
import InputFiles
import MockGPS
import Servers
import SystemIO

/// The arguments of `mockgps ctl [--control PATH|--link LINK] [--json] COMMAND ARGS`: where the
/// socket is, and the request line to send, built from positional sugar for the common commands
/// and generic `key=value` pairs for every field (so that ctl never falls behind the protocol).
struct CtlOptions: Equatable {
  /// The socket's path: the one `--control` names, or the default of the link.
  var socketPath: String
  /// Where else the link's socket may be when nothing listens at `socketPath`: a root daemon's
  /// default (`/run/mockgps/NAME.sock`, which `--control-group` opens to a group) for a user
  /// whose own default is elsewhere. Empty with `--control`.
  var fallbackSocketPaths: [String] = []
  /// The socket is a default one (no `--control`): only a mockgps of the caller's own user or
  /// root may be listening there (anyone may make `/tmp/mockgps-UID` before its user does).
  var requiresOwnOrRootListener = false
  /// Print the raw reply lines.
  var printsJSON = false
  /// The request, as one JSON line without its newline.
  var requestLine: String
  /// The command's name (`cmd`).
  var command: String
  /// For `subscribe --count N`: stop after N epoch lines; nil: until the emulator stops.
  var subscriptionCount: Int?

  /// True when the command subscribes: lines follow its reply.
  var subscribes: Bool { ControlCommand.named(command)?.delivery == .subscription }

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
      throw UsageError(
        message: "missing command for 'ctl' (expected one of "
          + ControlCommand.names.joined(separator: ", ") + ")")
    }
    guard let definition = ControlCommand.named(command) else {
      throw UsageError(
        message: "unknown command \(UsageError.quoted(command)) for 'ctl' (expected one of "
          + ControlCommand.names.joined(separator: ", ") + ")")
    }
    var (fields, count) = try requestFields(definition, Array(rest.dropFirst()))
    fields.insert(("cmd", .string(command)), at: 0)
    let link = linkPath ?? EmulatorConfiguration.defaultLinkPath
    let ownDefault = ControlSettings.defaultPath(forLink: link)
    let rootDefault = ControlSettings.defaultPath(forLink: link, runtimeDirectory: nil, userID: 0)
    return CtlOptions(
      socketPath: socketPath ?? ownDefault,
      fallbackSocketPaths: socketPath == nil && rootDefault != ownDefault ? [rootDefault] : [],
      requiresOwnOrRootListener: socketPath == nil,
      printsJSON: printsJSON, requestLine: ControlReply.Value.object(fields).json,
      command: command, subscriptionCount: count)
  }

  /// The fields of a request from its positional arguments, options and `key=value` pairs, as
  /// the command's row of `ControlCommand.all` spells them.
  private static func requestFields(_ command: ControlCommand, _ arguments: [String])
    throws(UsageError) -> ([(String, ControlReply.Value)], Int?)
  {
    var positional: [String] = []
    var fields: [(String, ControlReply.Value)] = []
    var count: Int?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if let option = command.syntax.option(named: argument) {
        guard case .setsTrue(let field) = option.effect else {
          guard index < arguments.count else {
            throw UsageError(message: "missing value for '\(argument)' (expected a number)")
          }
          let value = arguments[index]
          index += 1
          if case .number(let field) = option.effect {
            fields.append((field, try number(value, for: argument)))
          } else {
            guard let number = NumberSpelling.unsignedInteger(value), number > 0 else {
              throw UsageError.invalidValue(value, for: argument, "expected a positive integer")
            }
            count = number
          }
          continue
        }
        fields.append((field, .bool(true)))
      } else if argument.contains("=") && !argument.hasPrefix("-") {
        let key = String(argument[..<(argument.firstIndex(of: "=") ?? argument.endIndex)])
        let value = String(argument.dropFirst(key.count + 1))
        guard !key.isEmpty else {
          throw UsageError(
            message: "invalid argument \(UsageError.quoted(argument)) (expected key=value)")
        }
        fields.append((key, scalar(value)))
      } else {
        positional.append(argument)
      }
    }
    do {
      let sugar = try command.syntax.fields(
        of: positional, command: command.name, absolutePath: WorkingDirectory.absolute)
      return (sugar + fields, count)
    } catch {
      throw usageError(error)
    }
  }

  /// A number as the request carries it (see `ControlCommandSyntax.number`).
  private static func number(_ text: String, for name: String) throws(UsageError)
    -> ControlReply.Value
  {
    do {
      return try ControlCommandSyntax.number(text, for: name)
    } catch {
      throw usageError(error)
    }
  }

  /// The usage error of a mistake in a command's arguments.
  private static func usageError(_ error: ControlSyntaxError) -> UsageError {
    switch error {
    case .message(let message): return UsageError(message: message)
    case .invalidValue(let value, let option, let expected):
      return UsageError.invalidValue(value, for: option, expected)
    }
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
