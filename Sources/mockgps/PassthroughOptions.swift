import InputFiles
import MockGPS
import Receiver
import Udev

/// The options of `mockgps run` that pass a real receiver through (`--passthrough`) and say what
/// its position becomes (`--override`, `--offset`).
struct PassthroughOptions: Equatable {
  typealias Mode = PassthroughSettings.OverrideMode

  var target: PassthroughTarget?
  /// `--passthrough-baud`; nil for `auto`, or when not given.
  var baud: Int?
  /// `--override` as given; nil picks the mode from the other options.
  var override: Mode?
  var offset: PassthroughSettings.Offset?

  /// Options that take a value, with what the value must be.
  static let valueOptions: [String: String] = [
    "--passthrough": "a device path, auto, auto:VID:PID or auto:SERIAL",
    "--passthrough-baud": "auto or a standard baud: "
      + BytePacing.standardBauds.filter { $0 != 0 }.map(String.init).joined(separator: ", "),
    "--override": "one of " + Mode.allCases.map(\.rawValue).joined(separator: ", "),
    "--offset": "NORTH_M,EAST_M in meters, signed decimals",
  ]

  /// The options in the order the help shows them.
  static let allOptions = ["--passthrough", "--passthrough-baud", "--override", "--offset"]

  /// Options that mean nothing when a real receiver is passed through: it is the receiver.
  static let notForPassthrough = [
    "--replay", "--profile", "--almanac", "--constellations", "--rate", "--baud", "--output-delay",
    "--rtk-convergence", "--antenna-offset",
  ]

  /// The options that give the override its position or motion, and the modes that use each.
  private static let positionOptions: [(option: String, modes: Set<Mode>)] = [
    ("--position", [.replace, .offset]), ("--route", [.route]), ("--scenario", [.route]),
    ("--offset", [.offset]),
  ]

  /// Sets an option with a value; `invalid` makes the error naming the option and value.
  mutating func set(_ option: String, to value: String, invalid: (String) -> UsageError)
    throws(UsageError)
  {
    let expected = "expected " + (Self.valueOptions[option] ?? "")
    switch option {
    case "--passthrough":
      do {
        target = try PassthroughTarget(parsing: value)
      } catch {
        throw invalid("\(error.description) (\(expected))")
      }
    case "--passthrough-baud":
      if value == "auto" { return }
      guard let baud = NumberSpelling.unsignedInteger(value), baud != 0,
        BytePacing.standardBauds.contains(baud)
      else { throw invalid(expected) }
      self.baud = baud
    case "--override":
      guard let mode = Mode(rawValue: value) else { throw invalid(expected) }
      override = mode
    case "--offset":
      let parts = value.split(separator: ",", omittingEmptySubsequences: false)
      let numbers = parts.compactMap { RunOptions.decimal(String($0), signed: true) }
      guard parts.count == 2, numbers.count == 2 else { throw invalid(expected) }
      offset = PassthroughSettings.Offset(northMeters: numbers[0], eastMeters: numbers[1])
    default:
      throw UsageError.unknownOption(option)
    }
  }

  /// The settings the options ask for, nil without `--passthrough`; checks the options that
  /// only make sense together, given the options that were `seen`.
  ///
  /// Without `--override` the mode is `replace` with `--position`, `route` with `--route` or
  /// `--scenario`, `offset` with `--offset`, else `off`.
  func settings(seen: Set<String>, positionHasAltitude: Bool) throws(UsageError)
    -> PassthroughSettings?
  {
    guard let target else {
      for option in Self.allOptions.dropFirst() where seen.contains(option) {
        throw UsageError(message: "option '\(option)' needs '--passthrough'")
      }
      return nil
    }
    for option in Self.notForPassthrough where seen.contains(option) {
      throw UsageError(message: "options '--passthrough' and '\(option)' exclude each other")
    }
    if seen.contains("--position") && seen.contains("--offset") {
      throw UsageError(message: "options '--position' and '--offset' exclude each other")
    }
    let mode = override ?? Self.defaultMode(seen: seen)
    for rule in Self.positionOptions where seen.contains(rule.option) {
      guard rule.modes.contains(mode) else {
        let modes = rule.modes.map(\.rawValue).sorted().joined(separator: " or ")
        throw UsageError(
          message: "option '\(rule.option)' needs '--override \(modes)', not '\(mode.rawValue)'")
      }
    }
    let needed: [Mode: [String]] = [
      .replace: ["--position"], .offset: ["--position", "--offset"],
      .route: ["--route", "--scenario"],
    ]
    if let options = needed[mode], seen.isDisjoint(with: options) {
      let list = options.map { "'\($0)'" }.joined(separator: " or ")
      throw UsageError.invalidValue(
        mode.rawValue, for: "--override", "\(mode.rawValue) needs \(list)")
    }
    return PassthroughSettings(
      target: target, baud: baud, override: mode, offset: offset,
      replacesAltitude: mode == .replace && positionHasAltitude)
  }

  /// The mode the other options imply when `--override` is not given.
  private static func defaultMode(seen: Set<String>) -> Mode {
    if seen.contains("--position") { return .replace }
    if seen.contains("--route") || seen.contains("--scenario") { return .route }
    if seen.contains("--offset") { return .offset }
    return .off
  }
}
