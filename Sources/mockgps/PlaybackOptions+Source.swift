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
