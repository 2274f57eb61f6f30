import MockGPS
import Servers

/// The option of `mockgps run` that tells a running gpsd about the device (`--gpsd-socket`).
enum GpsdSocketOption {
  /// Options that take a value, with what the value must be.
  static let valueOptions = [
    "--gpsd-socket": "the path of gpsd's control socket (gpsd -F PATH), at most "
      + "\(GpsdNotifier.longestSocketPath) bytes"
  ]

  /// The options in the order the help shows them.
  static let allOptions = ["--gpsd-socket"]

  /// The socket path `value` names; `invalid` makes the error naming the option and value.
  static func socketPath(_ value: String, invalid: (String) -> UsageError) throws(UsageError)
    -> String
  {
    guard !value.isEmpty, value.utf8.count <= GpsdNotifier.longestSocketPath else {
      throw invalid("expected " + (valueOptions["--gpsd-socket"] ?? ""))
    }
    return value
  }

  /// Checks that gpsd can be told about `linkPath`: its control protocol ends a path at the
  /// first space or control character.
  static func validate(linkPath: String, seen: Set<String>) throws(UsageError) {
    guard seen.contains("--gpsd-socket"), !GpsdNotifier.canAnnounce(linkPath) else { return }
    throw UsageError(
      message: "option '--gpsd-socket' needs a '--link' path without spaces or control "
        + "characters (gpsd's control socket cannot name '\(linkPath)')")
  }
}
