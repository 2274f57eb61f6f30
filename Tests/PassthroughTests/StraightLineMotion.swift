import Geodesy
import Simulation

/// A motion at constant speed along a constant course from a start: the route of a test.
struct StraightLineMotion: Motion {
  var start: GeodeticPosition
  var startTime: UTCInstant
  var speedMetersPerSecond: Double
  var courseDegrees: Double

  func state(at time: UTCInstant) -> MotionState {
    let seconds = Double(time.nanoseconds - startTime.nanoseconds) / 1e9
    let position = Geodesic.wgs84.direct(
      from: start, azimuthDegrees: courseDegrees, distanceMeters: speedMetersPerSecond * seconds
    ).position
    return MotionState(
      position: position, speedMetersPerSecond: speedMetersPerSecond,
      courseDegrees: courseDegrees)
  }
}
