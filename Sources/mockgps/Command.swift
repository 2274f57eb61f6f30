/// What the command line asks for.
enum Command: Equatable {
  case help(topic: HelpTopic)
  case version
  /// The man page in roff (`--help-man`, not in the help: the build scripts use it).
  case manPage
  case run(RunOptions)
  case devices
  /// List the receiver profiles.
  case profiles
  /// Validate a route or scenario file.
  case check(path: String)
  /// Record a terminal into a replayable file.
  case record(RecordOptions)
  /// Send one request to a control socket (`mockgps ctl`).
  case ctl(CtlOptions)

  /// Parses the arguments after the program name.
  ///
  /// - Throws: `UsageError` with the text to show.
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .run(try RunOptions.parse([])) }
    switch first {
    case "-h", "--help", "help":
      if arguments.dropFirst().first == "run" { return .help(topic: .run) }
      if arguments.dropFirst().first == "devices" { return .help(topic: .devices) }
      if arguments.dropFirst().first == "check" { return .help(topic: .check) }
      if arguments.dropFirst().first == "profiles" { return .help(topic: .profiles) }
      if arguments.dropFirst().first == "record" { return .help(topic: .record) }
      if arguments.dropFirst().first == "ctl" { return .help(topic: .ctl) }
      return .help(topic: .main)
    case "--version":
      return .version
    case "--help-man":
      return .manPage
    case "devices":
      if arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
        return .help(topic: .devices)
      }
      if let extra = arguments.dropFirst().first {
        throw UsageError(message: "unexpected argument '\(extra)' for 'devices'")
      }
      return .devices
    case "profiles":
      if arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
        return .help(topic: .profiles)
      }
      if let extra = arguments.dropFirst().first {
        throw UsageError(message: "unexpected argument '\(extra)' for 'profiles'")
      }
      return .profiles
    case "check":
      let rest = arguments.dropFirst()
      if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: .check) }
      guard let path = rest.first else {
        throw UsageError(message: "missing file for 'check' (expected a route or scenario file)")
      }
      if let extra = rest.dropFirst().first {
        throw UsageError(message: "unexpected argument '\(extra)' for 'check'")
      }
      return .check(path: path)
    case "record":
      if arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
        return .help(topic: .record)
      }
      do {
        return .record(try RecordOptions.parse(Array(arguments.dropFirst())))
      } catch {
        throw error.pointing(to: "mockgps record --help")
      }
    case "ctl":
      let rest = Array(arguments.dropFirst())
      if rest.first == "-h" || rest.first == "--help" { return .help(topic: .ctl) }
      do {
        return .ctl(try CtlOptions.parse(rest))
      } catch {
        throw error.pointing(to: "mockgps ctl --help")
      }
    case "run":
      if arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
        return .help(topic: .run)
      }
      return .run(try RunOptions.parse(Array(arguments.dropFirst())))
    case let word where !word.hasPrefix("-"):
      throw UsageError(
        message: "unknown command '\(word)' (expected run, record, check, ctl, devices or profiles)"
      )
    default:
      if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
        return .help(topic: .run)
      }
      return .run(try RunOptions.parse(arguments))
    }
  }
}

/// Which help page to show.
enum HelpTopic: Equatable {
  case main
  case run
  case devices
  case check
  case profiles
  case record
  case ctl
}
