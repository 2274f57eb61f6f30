/// Where an antenna sits on the vehicle the motion describes: meters forward (along the course
/// over ground), right and up from the point the motion moves. Two receivers of one vehicle (a
/// moving base and its rover, for a heading from two antennas) follow one route with each its
/// own offset.
public struct AntennaOffset: Hashable, Sendable {
  /// The largest offset along each axis, meters: beyond it the flat-Earth step below errs by
  /// more than a millimetre.
  public static let limitMeters = 100.0

  public var forwardMeters: Double
  public var rightMeters: Double
  public var upMeters: Double

  /// An offset; each component within ±`limitMeters`.
  public init?(forwardMeters: Double, rightMeters: Double, upMeters: Double = 0) {
    let components = [forwardMeters, rightMeters, upMeters]
    guard components.allSatisfy({ $0.isFinite && abs($0) <= Self.limitMeters }) else {
      return nil
    }
    self.forwardMeters = forwardMeters
    self.rightMeters = rightMeters
    self.upMeters = upMeters
  }

  /// Where the antenna is when the vehicle's point is at `position` (altitude above the
  /// ellipsoid or the geoid alike) heading `courseDegrees`: a flat step along the ellipsoid's
  /// radii of curvature there.
  public func antenna(at position: GeodeticPosition, courseDegrees: Double) -> GeodeticPosition {
    let (east, north, up) = eastNorthUp(courseDegrees: courseDegrees)
    let ellipsoid = Geodesic.wgs84
    let e2 = ellipsoid.flattening * (2 - ellipsoid.flattening)
    let sinLatitude = sine(position.latitude.radians)
    let w2 = 1 - e2 * sinLatitude * sinLatitude
    let primeVertical = ellipsoid.equatorialRadiusMeters / w2.squareRoot()
    let meridian = primeVertical * (1 - e2) / w2
    let latitude = position.latitude + (north / (meridian + position.altitudeMeters)).degrees
    let cosLatitude = max(cosine(position.latitude.radians), 1e-9)
    var longitude =
      position.longitude
      + (east / ((primeVertical + position.altitudeMeters) * cosLatitude)).degrees
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return GeodeticPosition(
      known: min(90, max(-90, latitude)), longitude, altitudeMeters: position.altitudeMeters + up)
  }

  /// The offset's east, north and up components on a vehicle heading `courseDegrees`.
  public func eastNorthUp(courseDegrees: Double) -> (east: Double, north: Double, up: Double) {
    let course = courseDegrees.radians
    let (sinCourse, cosCourse) = (sine(course), cosine(course))
    return (
      east: forwardMeters * sinCourse + rightMeters * cosCourse,
      north: forwardMeters * cosCourse - rightMeters * sinCourse, up: upMeters
    )
  }
}
