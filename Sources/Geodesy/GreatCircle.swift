/// Distances and bearings on a sphere of the Earth's mean radius (haversine), good to about
/// 0.5 % against the ellipsoid, which is plenty for moving a simulated receiver.
public enum GreatCircle {
  /// The mean Earth radius in meters (IUGG).
  public static let earthRadiusMeters = 6_371_008.8

  /// The distance in meters between two positions, ignoring altitude.
  public static func distance(from a: GeodeticPosition, to b: GeodeticPosition) -> Double {
    let dLat = (b.latitude - a.latitude).radians
    let dLon = (b.longitude - a.longitude).radians
    let h =
      sine(dLat / 2) * sine(dLat / 2)
      + cosine(a.latitude.radians) * cosine(b.latitude.radians) * sine(dLon / 2) * sine(dLon / 2)
    return 2 * earthRadiusMeters * arcSine(min(1, h.squareRoot()))
  }

  /// The initial bearing from `a` to `b`, degrees true, 0 to less than 360.
  public static func bearing(from a: GeodeticPosition, to b: GeodeticPosition) -> Double {
    let phi1 = a.latitude.radians
    let phi2 = b.latitude.radians
    let dLon = (b.longitude - a.longitude).radians
    let y = sine(dLon) * cosine(phi2)
    let x = cosine(phi1) * sine(phi2) - sine(phi1) * cosine(phi2) * cosine(dLon)
    let degrees = arcTangent2(y, x).degrees
    return degrees < 0 ? degrees + 360 : degrees
  }

  /// The position reached from `start` after `distance` meters on the initial `bearing`.
  public static func destination(
    from start: GeodeticPosition, bearing: Double, distance: Double
  ) -> GeodeticPosition {
    let delta = distance / earthRadiusMeters
    let theta = bearing.radians
    let phi1 = start.latitude.radians
    let lambda1 = start.longitude.radians
    let phi2 = arcSine(sine(phi1) * cosine(delta) + cosine(phi1) * sine(delta) * cosine(theta))
    let lambda2 =
      lambda1
      + arcTangent2(
        sine(theta) * sine(delta) * cosine(phi1), cosine(delta) - sine(phi1) * sine(phi2))
    var longitude = lambda2.degrees
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    // In range by construction; the clamp only absorbs rounding at the poles.
    return GeodeticPosition(
      known: min(90, max(-90, phi2.degrees)), longitude, altitudeMeters: start.altitudeMeters)
  }
}
