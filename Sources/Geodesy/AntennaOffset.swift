/// Where an antenna sits on the vehicle the motion describes: meters forward (along the course
/// over ground), right and up from the point the motion moves. Two receivers of one vehicle (a
/// moving base and its rover, for a heading from two antennas) follow one route with each its
/// own offset.
public struct AntennaOffset: Hashable, Sendable {
  /// The largest offset along each axis, meters: an antenna on a vehicle.
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
  /// ellipsoid or the geoid alike) heading `courseDegrees`: the offset's horizontal part along
  /// the geodesic leaving the point in its direction, scaled to the ellipsoid below the point
  /// (exact at the poles and across the antimeridian too), raised by the ellipsoid's fall below the tangent plane over that
  /// distance (d² / 2R: 0.2 µm at 1.5 m, 0.8 mm at 100 m) and by the offset's up part.
  public func antenna(at position: GeodeticPosition, courseDegrees: Double) -> GeodeticPosition {
    let (east, north, up) = eastNorthUp(courseDegrees: courseDegrees)
    let distance = (east * east + north * north).squareRoot()
    var antenna = position
    if distance > 0 {
      let azimuth = LocalTangentFrame.direction(east: east, north: north, up: 0).azimuthDegrees
      // At the point's height a step is longer than its foot's on the ellipsoid, by the
      // ellipsoid's radius of curvature in that direction (Euler's, from the meridian's and
      // the prime vertical's).
      let ellipsoid = Geodesic.wgs84
      let e2 = ellipsoid.flattening * (2 - ellipsoid.flattening)
      let sinLatitude = sine(position.latitude.radians)
      let w2 = 1 - e2 * sinLatitude * sinLatitude
      let primeVertical = ellipsoid.equatorialRadiusMeters / w2.squareRoot()
      let meridian = primeVertical * (1 - e2) / w2
      let (sinAzimuth, cosAzimuth) = (sine(azimuth.radians), cosine(azimuth.radians))
      let radius =
        1 / (cosAzimuth * cosAzimuth / meridian + sinAzimuth * sinAzimuth / primeVertical)
      let onEllipsoid = distance * radius / (radius + position.altitudeMeters)
      antenna =
        ellipsoid.direct(from: position, azimuthDegrees: azimuth, distanceMeters: onEllipsoid)
        .position
    }
    antenna.altitudeMeters =
      position.altitudeMeters + up + distance * distance / (2 * Self.meanEarthRadiusMeters)
    return antenna
  }

  /// The Earth's mean radius, meters: the tangent plane's height over the ellipsoid needs no
  /// better over 100 m.
  static let meanEarthRadiusMeters = 6_371_000.0

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
