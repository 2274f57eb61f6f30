/// A mistake in the command line: printed as one line, then a pointer to the help; exit 64.
struct UsageError: Error, Hashable, CustomStringConvertible {
  let message: String

  static func invalidValue(_ value: String, for option: String, _ expected: String) -> UsageError {
    UsageError(message: "invalid value '\(value)' for '\(option)': \(expected)")
  }

  static func unknownOption(_ option: String) -> UsageError {
    UsageError(
      message: "unknown option '\(option)' (expected one of "
        + RunOptions.allOptions.joined(separator: ", ") + ")")
  }

  var description: String { message }

  /// The two lines written to standard error.
  var report: String { "mockgps: \(message)\nSee 'mockgps --help'.\n" }
}
