import CBuildInfo

/// The version of mockgps: the one place it is written. The man page (`--help-man`) and
/// `scripts/package` take it from the built binary.
enum Version {
  static let number = "0.1.0"

  /// The git commit the build scripts linked in, or nil for a plain `swift build`.
  static var commit: String? {
    guard let pointer = mockgps_build_commit() else { return nil }
    let commit = String(cString: pointer)
    return commit.isEmpty ? nil : commit
  }

  /// What `--version` prints: `mockgps 0.1.0`, or `mockgps 0.1.0 (abc1234)` from a checkout.
  static var text: String {
    "mockgps \(number)" + (commit.map { " (\($0))" } ?? "")
  }
}
