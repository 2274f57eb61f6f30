import InputFiles
import MockGPS
import Receiver
import Replay
import RouteFiles
import Simulation

extension PlaybackOptions {
  /// The source the options ask for, with its file read and checked; nil without `--route`,
  /// `--scenario` or `--replay` (whose log `openReplay()` opens).
  ///
  /// - Throws: `InputFileError` when the file is missing (exit 66) or wrong (exit 65).
  func source() throws(InputFileError) -> EmulatorConfiguration.Source? {
    switch script {
    case nil:
      return nil
    case .replay(let path):
      return .replay(path: path, replayPlayback)
    case .route(let path):
      switch ScriptFileKind.detect(path: path) {
      case .scenario: throw Self.wrongKind(path, "a scenario, not a route: use --scenario")
      case .config: throw Self.wrongKind(path, "a config of devices, not a route: use --config")
      case .route, .almanac, nil: break
      }
      let route = try RouteFile.load(path: path)
      let limits =
        speedMetersPerSecond == nil && route.isTimed
        ? nil : adjusted(DrivingLimits.car, speed: speedMetersPerSecond)
      return .route(
        route,
        RoutePlayback(limits: limits, looping: loop, startsNow: timeBase == .now))
    case .scenario(let path):
      if ScriptFileKind.detect(path: path) == .config {
        throw Self.wrongKind(path, "a config of devices, not a scenario: use --config")
      }
      var scenario = try ScenarioFile.load(path: path)
      scenario.limits = adjusted(scenario.limits, speed: nil)
      if let seed { scenario.seed = seed }
      return .scenario(scenario, startsNow: timeBase == .now)
    }
  }

  /// The error for a file `ScriptFileKind` tells is of another kind than its option reads.
  private static func wrongKind(_ path: String, _ holds: String) -> InputFileError {
    .invalid([InputDiagnostic(InputLocation(file: path), "holds \(holds)")])
  }

  /// How `--replay` plays: `--time`, `--loop`, `--move-to`, `--drop-invalid`,
  /// `--wait-for-client`, `--settle`.
  var replayPlayback: ReplayPlayback {
    ReplayPlayback(
      options: ReplayOptions(
        time: timeBase == .now ? .now : .original, looping: loop, moveTo: moveTo,
        dropInvalid: dropsInvalid),
      waitsForClient: waitsForClient,
      settleSeconds: settleSeconds ?? ReplayPlayback.defaultSettleSeconds)
  }

  /// The log of `--replay`, opened and read up to its first packet; nil without `--replay`.
  ///
  /// - Throws: `InputFileError` when the log is missing (exit 66) or holds nothing to replay
  ///   (65).
  func openReplay() throws(InputFileError) -> ReplayReader? {
    guard case .replay(let path) = script else { return nil }
    return try ReplayReader(path: path, options: replayPlayback.options)
  }

  /// The pacing of a replay without `--baud`: the log's `# Serial:` baud, else 9600; and a
  /// warning when the log's baud is not one the pacing knows.
  static func replayPacing(_ header: LogHeader) -> (BytePacing, warning: String?) {
    guard let baud = header.serial?.baud else { return (.baud9600, nil) }
    guard let pacing = try? BytePacing(baud: baud) else {
      return (.baud9600, "the log's '# Serial: \(baud)' is not a standard baud; pacing at 9600")
    }
    return (pacing, nil)
  }

  /// Refuses a `--start-time` after the end of a timed track played once at its own times: the
  /// receiver would only ever stand at its last point.
  func checkStart(_ start: UTCInstant?, of source: EmulatorConfiguration.Source)
    throws(UsageError)
  {
    guard let start, case .route(let route, let playback) = source, playback.limits == nil,
      !playback.looping, route.isTimed, let first = route.points.first?.time,
      let last = route.points.last?.time, start > last
    else { return }
    throw UsageError.invalidValue(
      "\(start)", for: "--start-time", "the track runs from \(first) to \(last)")
  }

  /// `limits` with what `--speed`, `--accel` and `--turn-rate` say instead.
  private func adjusted(_ limits: DrivingLimits, speed: Double?) -> DrivingLimits {
    var limits = limits
    if let speed { limits.speedMetersPerSecond = speed }
    if let accelerationMetersPerSecondSquared {
      limits.accelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared
    }
    if let turnRateDegreesPerSecond { limits.turnRateDegreesPerSecond = turnRateDegreesPerSecond }
    return limits
  }
}
