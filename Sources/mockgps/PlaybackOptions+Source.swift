import MockGPS
import RouteFiles
import Simulation

extension PlaybackOptions {
  /// The source the options ask for, with its file read and checked; nil without `--route` or
  /// `--scenario`.
  ///
  /// - Throws: `InputFileError` when the file is missing (exit 66) or wrong (exit 65).
  func source() throws(InputFileError) -> EmulatorConfiguration.Source? {
    switch script {
    case nil:
      return nil
    case .route(let path):
      if ScriptFileKind.detect(path: path) == .scenario {
        throw .invalid([
          InputDiagnostic(
            InputLocation(file: path), "holds a scenario, not a route: use --scenario")
        ])
      }
      let route = try RouteFile.load(path: path)
      let limits =
        speedMetersPerSecond == nil && route.isTimed
        ? nil : adjusted(DrivingLimits.car, speed: speedMetersPerSecond)
      return .route(
        route,
        RoutePlayback(limits: limits, looping: loop, startsNow: timeBase == .now))
    case .scenario(let path):
      var scenario = try ScenarioFile.load(path: path)
      scenario.limits = adjusted(scenario.limits, speed: nil)
      if let seed { scenario.seed = seed }
      return .scenario(scenario, startsNow: timeBase == .now)
    }
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
