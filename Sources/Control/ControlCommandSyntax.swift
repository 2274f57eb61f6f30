import InputFiles

/// How `mockgps ctl` spells a command after its name: positional arguments that stand for
/// fields of the request, and options (`--speed M/S`). Any field can also be given as
/// `key=value`, which `ctl` reads the same for every command.
public struct ControlCommandSyntax: Sendable {
  /// The fields that positional arguments make, in the request's order.
  public typealias Fields = [(String, ControlReply.Value)]

  /// What the positional arguments stand for, as help writes them: `LAT LON [ALT]`.
  public let positional: String
  /// The options after the name.
  public let options: [ControlCommandOption]
  /// The fields positional arguments make.
  let fields: @Sendable (ControlCommandArguments) throws(ControlSyntaxError) -> Fields

  /// A syntax whose positional arguments `fields` reads.
  init(
    _ positional: String, options: [ControlCommandOption] = [],
    fields: @escaping @Sendable (ControlCommandArguments) throws(ControlSyntaxError) -> Fields
  ) {
    self.positional = positional
    self.options = options
    self.fields = fields
  }

  /// No positional arguments (only `key=value`).
  static func none(options: [ControlCommandOption] = []) -> ControlCommandSyntax {
    ControlCommandSyntax("", options: options) { arguments throws(ControlSyntaxError) in
      try arguments.expect(0...0, "no positional arguments (use key=value)")
      return []
    }
  }

  /// Up to `names.count` numbers, one for each field named (the server refuses a missing
  /// one).
  static func numbers(_ positional: String, _ names: [String]) -> ControlCommandSyntax {
    ControlCommandSyntax(positional) { arguments throws(ControlSyntaxError) in
      try arguments.expect(0...names.count, positional)
      return try arguments.numbers(names, arguments.values)
    }
  }

  /// A number as a request carries it: an integer when written as one (`5`), else a decimal
  /// (`1e1` is 10), in the one number grammar (`NumberSpelling`).
  ///
  /// - Throws: `.invalidValue` naming `name` for anything else (`0x10`, `inf`, `+5`).
  public static func number(_ text: String, for name: String) throws(ControlSyntaxError)
    -> ControlReply.Value
  {
    guard let value = NumberSpelling.decimal(text) else {
      throw .invalidValue(text, option: name, expected: "expected a number")
    }
    if NumberSpelling.isInteger(text), let integer = Int64(text) { return .integer(integer) }
    return .number(value, digits: 12)
  }

  /// `positional` and the options, as help writes them after the command's name.
  public var usage: String {
    ([positional] + options.map(\.usage)).filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// The option spelled `name` (`--speed`), if this command takes it.
  public func option(named name: String) -> ControlCommandOption? {
    options.first { $0.name == name }
  }

  /// The fields that `values`, the positional arguments of `command`, stand for.
  ///
  /// - Parameter absolutePath: makes a path the caller gave absolute (the daemon may run in
  ///   another folder).
  public func fields(
    of values: [String], command: String, absolutePath: @escaping (String) -> String
  ) throws(ControlSyntaxError) -> Fields {
    try fields(
      ControlCommandArguments(command: command, values: values, absolutePath: absolutePath))
  }
}

/// An option of `mockgps ctl COMMAND`: `--loop`, `--speed M/S`, `--count N`.
public struct ControlCommandOption: Sendable {
  /// What the option does.
  public enum Effect: Hashable, Sendable {
    /// Sets the field to true; takes no value.
    case setsTrue(field: String)
    /// Sets the field to the number that follows.
    case number(field: String)
    /// `ctl`'s own: stop after this many lines (a positive integer).
    case lineCount
  }

  /// `--speed`.
  public let name: String
  /// What its value is called in help (`M/S`), or nil for a flag.
  public let placeholder: String?
  /// What it does to the request (or to `ctl`).
  public let effect: Effect

  /// `[--speed M/S]`, `[--loop]`.
  public var usage: String {
    "[" + ([name] + (placeholder.map { [$0] } ?? [])).joined(separator: " ") + "]"
  }
}

/// A mistake in `mockgps ctl`'s arguments for a command: `ctl` reports it as a usage error.
public enum ControlSyntaxError: Error, Hashable, Sendable {
  /// The whole message: `'fix' takes one MODE (…)`.
  case message(String)
  /// A value that is not what its field or option takes.
  case invalidValue(String, option: String, expected: String)
}

/// The positional arguments of one command, with what reading them needs.
struct ControlCommandArguments {
  /// The command's name.
  let command: String
  /// The positional arguments.
  let values: [String]
  /// Makes a path the caller gave absolute.
  let absolutePath: (String) -> String

  /// Refuses a count of positional arguments outside `range`: `'seek' takes SECONDS`.
  func expect(_ range: ClosedRange<Int>, _ what: String) throws(ControlSyntaxError) {
    guard range.contains(values.count) else { throw .message("'\(command)' takes \(what)") }
  }

  /// One number field for each of `parts`, named in order by `names`.
  func numbers(_ names: [String], _ parts: [String]) throws(ControlSyntaxError)
    -> ControlCommandSyntax.Fields
  {
    var result: ControlCommandSyntax.Fields = []
    for (name, part) in zip(names, parts) {
      result.append((name, try ControlCommandSyntax.number(part, for: name)))
    }
    return result
  }

}
