import Control
import DeviceRuntime
import DeviceSources
import Geodesy
import InputFiles
import MockGPS
import Receiver
import Simulation
import SystemIO

/// The options of `mockgps run`, validated.
struct RunOptions: Equatable {
  var configuration = EmulatorConfiguration()
  var logLevel: Log.Level = .info
  /// True when `--group` was given, so that a missing group is an error rather than a warning.
  var groupIsExplicit = false
  /// True when `--baud` was given: a replay otherwise paces at its log's `# Serial:` baud.
  var baudIsExplicit = false
  /// The route or scenario to play, and how.
  var playback = PlaybackOptions()
  /// The real receiver passed through, and what its position becomes.
  var passthrough = PassthroughOptions()
  /// `--control`, `--control-group`, `--no-control`.
  var control = ControlOptions()
  /// True when `--position` gave an altitude.
  var positionHasAltitude = false
  /// The almanac file to read before the device opens (`--almanac`).
  var almanacPath: String?
  /// The file of many devices (`--config`): the other options then come from it.
  var configPath: String?
  /// Where the browser panel listens (`--panel`), for every device of the process.
  var panel: InternetAddress?
  /// The folder the panel may load route files from (`--panel-files`), resolved.
  var panelFiles: String?
  /// Which of the `--config` file's devices this process runs (`--shard`); all without it.
  var shard: Shard?
  /// `--time-scale` as given, for an error once the source is known.
  private var timeScaleText: String?
  /// `--constellations` as given, for an error once the profile is known.
  private var constellationsText: String?

  /// Options that take a value, with what the value must be.
  static let valueOptions: [String: String] = [
    "--config": "a JSON file of devices",
    "--shard": Shard.expected,
    "--link": "a path for the device link",
    "--position": "LAT,LON[,ALT] in decimal degrees and meters",
    "--rate": "a rate in Hz from 0.1 to 20",
    "--baud": "0 (unpaced) or a standard baud: "
      + BytePacing.standardBauds.dropFirst().map(String.init).joined(separator: ", "),
    "--baud-mismatch": "garble or clean",
    "--output-delay": "MS or MS±JITTER in whole milliseconds, jitter at most the delay, "
      + "the two under 1000",
    "--base": "LAT,LON[,ALT] of the station's antenna in decimal degrees and meters",
    "--antenna-offset": "FORWARD,RIGHT[,UP] in meters, each from -100 to 100",
    "--rtk-convergence": "FLOAT,FIXED: mean seconds to RTK float, then to RTK fixed, each "
      + "from 0 to 3600",
    "--state-dir": "a directory for the chip's saved settings",
    "--group": "a group name or number",
    "--mode": "octal permissions from 0000 to 0777",
    "--time-scale": "a factor from 0.01 to 1000 (to 1000000 with --replay)",
    "--start-time": "a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z",
    "--profile": "one of " + ReceiverProfile.all.map(\.name).joined(separator: ", "),
    "--almanac": "a YUMA almanac file",
    "--panel-files": "an existing folder",
    "--constellations": "a comma-separated list of "
      + Constellation.allCases.map(\.rawValue).joined(separator: ", "),
  ]

  /// The factors `--time-scale` accepts.
  static let timeScaleRange: ClosedRange<Double> = 0.01...1000
  /// The factors `--time-scale` accepts with `--replay`: a log has no simulation to keep up.
  static let replayTimeScaleRange: ClosedRange<Double> = 0.01...ReplayLoop.Plan.largestTimeScale

  /// Options that take no value.
  static let flags = Set(["--verbose", "--quiet", "--moving-base"]).union(PlaybackOptions.flags)
    .union(ControlOptions.flags)

  /// The options that go with `--config`: they are the whole process's, not a device's.
  static let processOptions: Set<String> = [
    "--config", "--shard", "--panel", "--panel-files", "--verbose", "--quiet",
  ]

  /// Short spellings and the option each stands for.
  static let shortOptions = ["-v": "--verbose", "-q": "--quiet"]

  /// Every option of `run` that takes a value, with what it expects.
  static let allValueOptions = [
    valueOptions, PlaybackOptions.valueOptions, PassthroughOptions.valueOptions,
    NetworkOptions.valueOptions, ControlOptions.valueOptions, GpsdSocketOption.valueOptions,
    PanelOption.valueOptions,
  ].reduce(into: [String: String]()) { all, table in
    all.merge(table) { first, _ in first }
  }

  /// The reader of `run`'s arguments (`-v` and `--verbose` are one option: giving both is
  /// giving it twice).
  static let scanner = CommandLineScanner(
    valueOptions: allValueOptions, flags: flags, shortOptions: shortOptions,
    unknown: UsageError.unknownOption)

  /// Every option of `run`, in the order the help shows them.
  static let allOptions =
    ["--link", "--position"] + PlaybackOptions.allOptions + PassthroughOptions.allOptions
    + ControlOptions.allOptions
    + [
      "--profile", "--almanac", "--constellations", "--rate", "--baud", "--baud-mismatch",
      "--output-delay", "--base", "--moving-base", "--antenna-offset", "--rtk-convergence",
      "--state-dir", "--group", "--mode",
      "--time-scale", "--start-time",
    ] + NetworkOptions.allOptions
    + [
      "--gpsd-socket", "--panel", "--panel-files", "--config", "--shard", "--verbose", "--quiet",
      "--help",
    ]

  /// The configuration to start with: the default group, when this system has none of that
  /// name, is left out with a warning (a group given with `--group` must exist).
  func resolvedConfiguration(log: Log) -> EmulatorConfiguration {
    var resolved = configuration
    if !groupIsExplicit, let name = resolved.groupName, Groups.groupID(named: name) == nil {
      log.warning("no group '\(name)' on this system; the device keeps the group 'tty'")
      resolved.groupName = nil
    }
    return resolved
  }

  /// Parses and validates `run`'s arguments.
  static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
    var options = RunOptions()
    var scanner = scanner
    scanner.start(arguments)
    while let item = try scanner.next() {
      switch item {
      case .operand(let argument):
        throw UsageError(message: "unexpected argument \(UsageError.quoted(argument))")
      case .option(let flag, value: nil):
        if ControlOptions.flags.contains(flag) {
          options.control.isDisabled = true
        } else if PlaybackOptions.flags.contains(flag) {
          options.playback.set(flag: flag)
        } else if flag == "--moving-base" {
          options.configuration.isMovingBase = true
        } else {
          options.logLevel = flag == "--verbose" ? .debug : .error
        }
      case .option(let option, value: let value?):
        try options.set(option, to: value, expected: allValueOptions[option] ?? "")
      }
    }
    let seen = scanner.seen
    if seen.contains("--verbose") && seen.contains("--quiet") {
      throw UsageError(message: "options '--verbose' and '--quiet' exclude each other")
    }
    if seen.contains("--panel-files") && !seen.contains("--panel") {
      throw UsageError(message: "option '--panel-files' goes with '--panel'")
    }
    if seen.contains("--shard") && !seen.contains("--config") {
      throw UsageError(message: "option '--shard' goes with '--config'")
    }
    if seen.contains("--state-dir"),
      let other = ["--replay", "--passthrough"].first(where: seen.contains)
    {
      throw UsageError(
        message: "options '--state-dir' and '\(other)' exclude each other "
          + "(only a simulated chip keeps settings)")
    }
    if seen.contains("--config"),
      let other = allOptions.first(where: { seen.contains($0) && !processOptions.contains($0) })
    {
      throw UsageError(
        message: "options '--config' and '\(other)' exclude each other "
          + "(give '\(other.dropFirst(2))' to each device in the file)")
    }
    if seen.contains("--base") {
      let sources = [
        "--position", "--route", "--scenario", "--replay", "--passthrough", "--antenna-offset",
      ]
      if let other = sources.first(where: seen.contains) {
        throw UsageError(
          message: "options '--base' and '\(other)' exclude each other "
            + "(a reference station stands at its position)")
      }
      guard options.configuration.profile.commandSet == .ubloxF9 else {
        throw UsageError(
          message: "option '--base' goes with '--profile ublox-f9p' (a chip with a time mode)")
      }
    }
    if seen.contains("--moving-base") {
      if let other = ["--replay", "--passthrough"].first(where: seen.contains) {
        throw UsageError(
          message: "options '--moving-base' and '\(other)' exclude each other "
            + "(only a simulated chip is a moving base)")
      }
      if seen.contains("--base") {
        throw UsageError(
          message: "options '--moving-base' and '--base' exclude each other "
            + "(a moving base has no time mode)")
      }
      guard options.configuration.profile.commandSet == .ubloxF9 else {
        throw UsageError(
          message: "option '--moving-base' goes with '--profile ublox-f9p' "
            + "(a chip that sends RTCM 4072)")
      }
    }
    try options.playback.validate(seen: seen)
    try GpsdSocketOption.validate(linkPath: options.configuration.linkPath, seen: seen)
    options.configuration.passthrough = try options.passthrough.settings(
      seen: seen, positionHasAltitude: options.positionHasAltitude)
    if !options.playback.isReplay,
      !timeScaleRange.contains(options.configuration.timeScale)
    {
      throw UsageError.invalidValue(
        options.timeScaleText ?? "", for: "--time-scale",
        "expected \(valueOptions["--time-scale"] ?? "")")
    }
    if let text = options.constellationsText, let systems = options.configuration.sky.constellations
    {
      do {
        try options.configuration.profile.checkTracking(systems)
      } catch {
        throw UsageError.invalidValue(text, for: "--constellations", error.description)
      }
    }
    if !seen.contains("--baud"),
      let pacing = try? BytePacing(baud: options.configuration.profile.defaultBaud)
    {
      options.configuration.pacing = pacing
    }
    if let seed = options.playback.seed { options.configuration.sky.seed = seed }
    options.configuration.control = try options.control.settings(
      seen: seen, linkPath: options.configuration.linkPath)
    return options
  }

  private mutating func set(_ option: String, to value: String, expected: String)
    throws(UsageError)
  {
    let invalid = { (reason: String) in UsageError.invalidValue(value, for: option, reason) }
    switch option {
    case "--link":
      guard !value.isEmpty, !value.hasSuffix("/") else { throw invalid("expected \(expected)") }
      configuration.linkPath = value
    case "--position":
      configuration.source = .fixed(try Self.position(value, invalid: invalid))
      positionHasAltitude = value.split(separator: ",", omittingEmptySubsequences: false).count == 3
    case "--rate":
      guard let hz = Self.decimal(value), let plan = try? CadencePlan(rateHz: hz) else {
        throw invalid("expected \(expected)")
      }
      configuration.cadence = plan
    case "--baud":
      guard let baud = NumberSpelling.unsignedInteger(value),
        let pacing = try? BytePacing(baud: baud)
      else {
        throw invalid("expected \(expected)")
      }
      configuration.pacing = pacing
      baudIsExplicit = true
    case "--baud-mismatch":
      guard let mismatch = EmulatorConfiguration.BaudMismatch(rawValue: value) else {
        throw invalid("expected \(expected)")
      }
      configuration.baudMismatch = mismatch
    case "--output-delay":
      let parsed: OutputDelay?
      do throws(OutputDelay.Refusal) {
        parsed = try OutputDelay.parse(milliseconds: value)
      } catch {
        throw invalid(Self.reason(error))
      }
      guard let delay = parsed else { throw invalid("expected \(expected)") }
      configuration.outputDelay = delay
    case "--base":
      configuration.source = .fixed(try Self.position(value, invalid: invalid))
      configuration.isBase = true
    case "--antenna-offset":
      let parts = value.split(separator: ",", omittingEmptySubsequences: false)
      let meters = parts.map { Self.decimal(String($0), signed: true) }
      guard (2...3).contains(parts.count), meters.allSatisfy({ $0 != nil }),
        let offset = AntennaOffset(
          forwardMeters: meters[0] ?? 0, rightMeters: meters[1] ?? 0,
          upMeters: parts.count == 3 ? meters[2] ?? 0 : 0)
      else { throw invalid("expected \(expected)") }
      configuration.antennaOffset = offset
    case "--rtk-convergence":
      let seconds = value.split(separator: ",", omittingEmptySubsequences: false).map {
        Self.decimal(String($0))
      }
      guard seconds.count == 2, let float = seconds[0], let fixed = seconds[1],
        (0...3600).contains(float), (0...3600).contains(fixed)
      else { throw invalid("expected \(expected)") }
      configuration.rtkConvergence.floatSeconds = float
      configuration.rtkConvergence.fixedSeconds = fixed
    case "--state-dir":
      guard !value.isEmpty else { throw invalid("expected \(expected)") }
      configuration.stateDirectory = value
    case "--group":
      guard !value.isEmpty else { throw invalid("expected \(expected)") }
      configuration.groupName = value
      groupIsExplicit = true
    case "--mode":
      guard Self.isDigits(value), let mode = UInt32(value, radix: 8), mode <= 0o777 else {
        throw invalid("expected \(expected)")
      }
      configuration.mode = mode
    case "--time-scale":
      guard let scale = Self.decimal(value), Self.replayTimeScaleRange.contains(scale) else {
        throw invalid("expected \(expected)")
      }
      configuration.timeScale = scale
      timeScaleText = value
    case "--start-time":
      do {
        configuration.startTime = try UTCInstant(iso8601: value)
      } catch {
        throw invalid(error.description)
      }
    case "--profile":
      guard let profile = ReceiverProfile.named(value) else {
        throw invalid("expected \(expected)")
      }
      configuration.profile = profile
    case "--config":
      guard !value.isEmpty else { throw invalid("expected \(expected)") }
      configPath = value
    case "--shard":
      guard let shard = Shard(value) else { throw invalid("expected \(expected)") }
      self.shard = shard
    case "--almanac":
      guard !value.isEmpty else { throw invalid("expected \(expected)") }
      almanacPath = value
    case "--constellations":
      let names = value.split(separator: ",", omittingEmptySubsequences: false)
      let systems = names.map { Constellation(rawValue: String($0)) }
      guard systems.allSatisfy({ $0 != nil }) else { throw invalid("expected \(expected)") }
      configuration.sky.constellations = Set(systems.compactMap { $0 })
      constellationsText = value
    case _ where NetworkOptions.valueOptions[option] != nil:
      try NetworkOptions.set(option, to: value, in: &configuration, invalid: invalid)
    case "--panel":
      panel = try PanelOption.address(value, invalid: invalid)
    case "--panel-files":
      guard let folder = PanelOption.folder(value) else { throw invalid("expected \(expected)") }
      panelFiles = folder
    case "--gpsd-socket":
      configuration.gpsdSocket = try GpsdSocketOption.socketPath(value, invalid: invalid)
    case _ where PassthroughOptions.valueOptions[option] != nil:
      try passthrough.set(option, to: value, invalid: invalid)
    case _ where ControlOptions.valueOptions[option] != nil:
      try control.set(option, to: value, invalid: invalid)
    default:
      try playback.set(option, to: value, invalid: invalid)
    }
  }

  private static func position(_ value: String, invalid: (String) -> UsageError)
    throws(UsageError) -> GeodeticPosition
  {
    let parts = value.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.map { decimal(String($0), signed: true) }
    guard (2...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }) else {
      throw invalid("expected LAT,LON[,ALT] in decimal degrees and meters")
    }
    let latitude = numbers[0] ?? 0
    let longitude = numbers[1] ?? 0
    let altitude = parts.count == 3 ? numbers[2] ?? 0 : 0
    do {
      return try GeodeticPosition(
        latitude: latitude, longitude: longitude, altitudeMeters: altitude)
    } catch {
      throw invalid(error.description)
    }
  }

  /// The value of a number spelled as `NumberSpelling` has it (the control socket's JSON
  /// grammar), negative only if `signed`; nil for anything else Swift would parse: `+5`, `.5`,
  /// `0x14`, `inf`, `nan`.
  static func decimal(_ text: String, signed: Bool = false) -> Double? {
    guard signed || !text.hasPrefix("-") else { return nil }
    return NumberSpelling.decimal(text)
  }

  /// Why an output delay cannot be a chip's.
  static func reason(_ refusal: OutputDelay.Refusal) -> String {
    switch refusal {
    case .negative: "a delay cannot be negative"
    case .jitterAboveDelay: "the jitter cannot exceed the delay: no epoch leaves before its instant"
    case .tooLong: "the delay and its jitter must stay under 1000 ms"
    }
  }

  /// True when `text` is one or more ASCII digits and nothing else.
  static func isDigits(_ text: some StringProtocol) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}
