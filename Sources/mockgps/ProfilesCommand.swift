import Receiver

/// `mockgps profiles`: the receiver profiles `--profile` takes, one a line.
enum ProfilesCommand {
  static func execute() -> Int32 {
    for line in lines() { print(line) }
    return ExitCode.success
  }

  /// `generic    NMEA 2.3 receiver: … (default)`: the names aligned, the default marked.
  static func lines(
    _ profiles: [ReceiverProfile] = ReceiverProfile.all, default: ReceiverProfile = .generic
  ) -> [String] {
    let width = profiles.map(\.name.count).max() ?? 0
    return profiles.map { profile in
      let padding = String(repeating: " ", count: width - profile.name.count + 2)
      let mark = profile.name == `default`.name ? " (default)" : ""
      return profile.name + padding + profile.summary + mark
    }
  }
}
