import MockGPS
import Servers

/// The options of `mockgps run` for the control socket: `--control PATH`, `--control-group
/// NAME` and `--no-control`. Without any of them the socket listens at the link's default path
/// (see `ControlSettings.defaultPath`), and failing there is only a warning.
struct ControlOptions: Equatable {
  var path: String?
  var groupName: String?
  var isDisabled = false

  /// Options that take a value, with what the value must be.
  static let valueOptions: [String: String] = [
    "--control": "a socket path (at most 107 bytes)",
    "--control-group": "a group name or number",
  ]

  /// Options without a value.
  static let flags: Set<String> = ["--no-control"]

  /// The options in the order the help shows them.
  static let allOptions = ["--control", "--control-group", "--no-control"]

  /// Sets an option with a value; `invalid` makes the error naming the option and value.
  mutating func set(_ option: String, to value: String, invalid: (String) -> UsageError)
    throws(UsageError)
  {
    guard !value.isEmpty else {
      throw invalid("expected \(Self.valueOptions[option] ?? "a value")")
    }
    switch option {
    case "--control":
      guard value.utf8.count <= 107, !value.hasSuffix("/") else {
        throw invalid("expected \(Self.valueOptions[option] ?? "")")
      }
      path = value
    case "--control-group":
      groupName = value
    default:
      throw UsageError.unknownOption(option)
    }
  }

  /// The settings the options ask for on the link `linkPath`, nil with `--no-control`.
  func settings(seen: Set<String>, linkPath: String) throws(UsageError) -> ControlSettings? {
    if isDisabled {
      for option in ["--control", "--control-group"] where seen.contains(option) {
        throw UsageError(message: "options '--no-control' and '\(option)' exclude each other")
      }
      return nil
    }
    guard let path else {
      return ControlSettings.defaults(forLink: linkPath, groupName: groupName)
    }
    return ControlSettings(path: path, groupName: groupName, isExplicit: true)
  }
}
