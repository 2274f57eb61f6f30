import Geodesy
import Simulation

/// A motion's state at one instant.
struct MotionSample {
  var time: UTCInstant
  var state: MotionState
}

/// The states of `motion` every `1 / rate` seconds from `start` for `seconds`.
func samples(
  of motion: some Motion, from start: UTCInstant, seconds: Int, rate: Int
) -> [MotionSample] {
  let step = UTCInstant.nanosecondsPerSecond / Int64(rate)
  return (0...(seconds * rate)).map { index in
    let time = start.adding(nanoseconds: Int64(index) * step)
    return MotionSample(time: time, state: motion.state(at: time))
  }
}

/// The distance and initial azimuth from `a` to `b` on the ellipsoid.
func geodesic(_ a: GeodeticPosition, _ b: GeodeticPosition) -> GeodesicInverse {
  Geodesic.wgs84.inverse(from: a, to: b)
}

/// The turn from course `a` to course `b`, degrees in -180...180.
func turn(from a: Double, to b: Double) -> Double {
  var difference = (b - a).truncatingRemainder(dividingBy: 360)
  if difference > 180 { difference -= 360 }
  if difference < -180 { difference += 360 }
  return difference
}
