import Geodesy

#if canImport(Glibc)
  import Glibc
#endif

/// ECEF to geodetic coordinates and velocity rotation between places, for the UBX messages
/// that give positions and velocities in ECEF (NAV-POSECEF, NAV-SOL, NAV-HPPOSECEF,
/// NAV-VELECEF).
package enum EarthCenteredConversion {
  private static let a = Geodesic.wgs84.equatorialRadiusMeters
  private static let e2 = Geodesic.wgs84.flattening * (2 - Geodesic.wgs84.flattening)

  /// Latitude and longitude (degrees) and height above the ellipsoid (meters) of an ECEF
  /// point, by fixed-point iteration on the latitude (sub-millimetre after a few steps for any
  /// point near the Earth's surface); nil at the Earth's centre or for a point far from the
  /// surface (not a receiver's position).
  package static func geodetic(x: Double, y: Double, z: Double)
    -> (latitude: Double, longitude: Double, height: Double)?
  {
    let p = (x * x + y * y).squareRoot()
    let r = (p * p + z * z).squareRoot()
    guard r.isFinite, r > 6_000_000, r < 50_000_000 else { return nil }
    let longitude = atan2(y, x)
    var latitude = atan2(z, p * (1 - e2))
    var height = 0.0
    for _ in 0..<6 {
      let s = sin(latitude)
      let n = a / (1 - e2 * s * s).squareRoot()
      height = p * cos(latitude) + (z + e2 * n * s) * s - n
      latitude = atan2(z, p * (1 - e2 * n / (n + height)))
    }
    let s = sin(latitude)
    let n = a / (1 - e2 * s * s).squareRoot()
    height = p * cos(latitude) + (z + e2 * n * s) * s - n
    return (latitude * 180 / .pi, longitude * 180 / .pi, height)
  }

  /// An ECEF vector at `from` turned so that its east, north and up parts are the same at `to`:
  /// a velocity keeps its speed, course and climb when the track is moved.
  package static func rotated(
    _ v: (x: Double, y: Double, z: Double), from: GeodeticPosition, to: GeodeticPosition
  ) -> (x: Double, y: Double, z: Double) {
    let (east, north, up) = local(v, at: from)
    return earthCentered(east: east, north: north, up: up, at: to)
  }

  /// The ECEF vector of a local east, north, up vector at `position`.
  package static func earthCentered(
    east: Double, north: Double, up: Double, at position: GeodeticPosition
  ) -> (x: Double, y: Double, z: Double) {
    let (sinPhi, cosPhi) = (sin(position.latitude * .pi / 180), cos(position.latitude * .pi / 180))
    let (sinLambda, cosLambda) = (
      sin(position.longitude * .pi / 180), cos(position.longitude * .pi / 180)
    )
    return (
      -sinLambda * east - sinPhi * cosLambda * north + cosPhi * cosLambda * up,
      cosLambda * east - sinPhi * sinLambda * north + cosPhi * sinLambda * up,
      cosPhi * north + sinPhi * up
    )
  }

  private static func local(_ v: (x: Double, y: Double, z: Double), at position: GeodeticPosition)
    -> (Double, Double, Double)
  {
    let (sinPhi, cosPhi) = (sin(position.latitude * .pi / 180), cos(position.latitude * .pi / 180))
    let (sinLambda, cosLambda) = (
      sin(position.longitude * .pi / 180), cos(position.longitude * .pi / 180)
    )
    let east = -sinLambda * v.x + cosLambda * v.y
    let north = -sinPhi * cosLambda * v.x - sinPhi * sinLambda * v.y + cosPhi * v.z
    let up = cosPhi * cosLambda * v.x + cosPhi * sinLambda * v.y + sinPhi * v.z
    return (east, north, up)
  }
}
