import Glibc
import Simulation
import UBX

/// A fix's velocity as u-blox reports it: north-east-down for NAV-PVT, Earth-centred for
/// NAV-VELECEF and NAV-SOL.
struct UbloxVelocity {
  var northEastDown: UBXNavigationSolution.Vector
  var earthCentered: UBXNavigationSolution.Vector
  var speedMetersPerSecond: Double

  /// The velocity of speed over ground along the course, and the climb rate.
  init(fix: Fix) {
    let course = fix.courseDegrees * .pi / 180
    let north = fix.speedMetersPerSecond * cos(course)
    let east = fix.speedMetersPerSecond * sin(course)
    let up = fix.climbMetersPerSecond
    northEastDown = .init(x: north, y: east, z: -up)
    let latitude = fix.position.latitude * .pi / 180
    let longitude = fix.position.longitude * .pi / 180
    let (sinLat, cosLat) = (sin(latitude), cos(latitude))
    let (sinLon, cosLon) = (sin(longitude), cos(longitude))
    earthCentered = .init(
      x: -sinLon * east - sinLat * cosLon * north + cosLat * cosLon * up,
      y: cosLon * east - sinLat * sinLon * north + cosLat * sinLon * up,
      z: cosLat * north + sinLat * up)
    speedMetersPerSecond = fix.speedMetersPerSecond
  }

  /// How uncertain the heading is given the speed's uncertainty: 180° when standing still.
  func headingAccuracyDegrees(speedAccuracy: Double) -> Double {
    guard speedMetersPerSecond > speedAccuracy else { return 180 }
    return min(180, atan(speedAccuracy / speedMetersPerSecond) * 180 / .pi)
  }
}
