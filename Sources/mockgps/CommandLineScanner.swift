/// The one reader of a subcommand's arguments (`run`, `record`): options as `--name value`,
/// `--name=value` or a flag alone, short spellings (`-v`), operands, and the usage errors they
/// share, worded alike for every subcommand.
///
/// A value is the next argument unless it starts with `--` (`--name=--x` gives one that does).
/// An option given twice is refused, its short and long spellings being one option.
struct CommandLineScanner: Sendable {
  /// What one step of the scan read.
  enum Item: Equatable, Sendable {
    /// An option by its long name, with its value (nil for a flag).
    case option(String, value: String?)
    /// An argument that is no option.
    case operand(String)
  }

  /// The options that take a value, each with what it expects (for `missing value` messages).
  let valueOptions: [String: String]
  /// The options that take none.
  let flags: Set<String>
  /// Short spellings and the long options they stand for.
  var shortOptions: [String: String] = [:]
  /// True when `-` alone is an operand (a path, say) rather than an unknown option.
  var dashIsOperand = false
  /// The error for an option that is neither a flag nor takes a value.
  let unknown: @Sendable (String) -> UsageError

  /// The options read so far, by their long names.
  private(set) var seen: Set<String> = []
  /// The arguments being read.
  private var arguments: ArraySlice<String> = []

  /// A scanner of options, with `unknown` wording the refusal of anything else.
  init(
    valueOptions: [String: String], flags: Set<String>, shortOptions: [String: String] = [:],
    dashIsOperand: Bool = false, unknown: @escaping @Sendable (String) -> UsageError
  ) {
    self.valueOptions = valueOptions
    self.flags = flags
    self.shortOptions = shortOptions
    self.dashIsOperand = dashIsOperand
    self.unknown = unknown
  }

  /// Starts reading `arguments` from the first.
  mutating func start(_ arguments: [String]) {
    self.arguments = arguments[...]
    seen = []
  }

  /// The next option or operand, or nil after the last argument.
  ///
  /// - Throws: `UsageError` for an option given twice, unknown, missing its value, or given
  ///   one when it takes none.
  mutating func next() throws(UsageError) -> Item? {
    guard var argument = arguments.popFirst() else { return nil }
    guard argument.hasPrefix("-"), !(dashIsOperand && argument == "-") else {
      return .operand(argument)
    }
    var inlineValue: String?
    if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
      inlineValue = String(argument[argument.index(after: equals)...])
      argument = String(argument[..<equals])
    }
    argument = shortOptions[argument] ?? argument
    guard !seen.contains(argument) else {
      throw UsageError(message: "option '\(argument)' given more than once")
    }
    seen.insert(argument)
    if flags.contains(argument) {
      guard inlineValue == nil else {
        throw UsageError(message: "option '\(argument)' takes no value")
      }
      return .option(argument, value: nil)
    }
    guard let expected = valueOptions[argument] else { throw unknown(argument) }
    if let inlineValue { return .option(argument, value: inlineValue) }
    guard let value = arguments.first, !value.hasPrefix("--") else {
      throw UsageError(message: "missing value for '\(argument)' (expected \(expected))")
    }
    arguments.removeFirst()
    return .option(argument, value: value)
  }
}
