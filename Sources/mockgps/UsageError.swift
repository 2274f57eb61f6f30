/// A mistake in the command line: printed as one line, then a pointer to the help; exit 64.
struct UsageError: Error, Hashable, CustomStringConvertible {
  let message: String
  /// For a bad value: the option and why its value was refused (`expected a rate in Hz…`), so
  /// that a config file can word the error after its own key. Not part of equality.
  private(set) var invalidValue: (option: String, reason: String)?
  /// The help the report points to: the command's own page for `ctl` and `record`.
  var help = "mockgps --help"

  init(message: String) {
    self.message = message
  }

  static func invalidValue(_ value: String, for option: String, _ expected: String) -> UsageError {
    var error = UsageError(message: "invalid value \(quoted(value)) for '\(option)': \(expected)")
    error.invalidValue = (option, expected)
    return error
  }

  static func unknownOption(_ option: String) -> UsageError {
    UsageError(
      message: "unknown option \(quoted(option)) (expected one of "
        + RunOptions.allOptions.joined(separator: ", ") + ")")
  }

  /// The longest argument a message quotes whole: a long path still shows whole.
  static let quotedLength = 200

  /// An argument as a message quotes it: `'50'`, or its first `quotedLength` characters and
  /// how long it is, so that a million-digit seed does not come back as a megabyte.
  static func quoted(_ argument: String) -> String {
    guard argument.count > quotedLength else { return "'\(argument)'" }
    return "'\(argument.prefix(quotedLength))…' (\(argument.count) characters)"
  }

  static func == (lhs: UsageError, rhs: UsageError) -> Bool { lhs.message == rhs.message }

  func hash(into hasher: inout Hasher) { hasher.combine(message) }

  var description: String { message }

  /// The two lines written to standard error.
  var report: String { "mockgps: \(message)\nSee '\(help)'.\n" }

  /// The same error pointing to `help` (`mockgps ctl --help`).
  func pointing(to help: String) -> UsageError {
    var error = self
    error.help = help
    return error
  }
}
