// CONTRACT PLACEHOLDER (spherical): the geodesy work replaces this file with Karney's geodesics
// on the ellipsoid. Nothing may ship with it.

/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Hashable, Sendable {
  /// The length of the geodesic, meters.
  public var distanceMeters: Double
  /// The azimuth at the first point, degrees clockwise from north, 0 to less than 360.
  public var initialAzimuthDegrees: Double
  /// The azimuth at the second point (the direction of travel on arrival), 0 to less than 360.
  public var finalAzimuthDegrees: Double
}

/// The solution of the direct geodesic problem.
public struct GeodesicDirect: Hashable, Sendable {
  /// Where the geodesic ends; its altitude is the start's.
  public var position: GeodeticPosition
  /// The azimuth there, degrees clockwise from north, 0 to less than 360.
  public var finalAzimuthDegrees: Double
}

/// Geodesics on an ellipsoid of revolution.
public struct Geodesic: Sendable {
  /// The WGS-84 ellipsoid.
  public static let wgs84 = Geodesic(
    equatorialRadiusMeters: 6_378_137, flattening: 1 / 298.257_223_563)

  public let equatorialRadiusMeters: Double
  public let flattening: Double

  /// Creates the geodesics of an ellipsoid.
  public init(equatorialRadiusMeters: Double, flattening: Double) {
    self.equatorialRadiusMeters = equatorialRadiusMeters
    self.flattening = flattening
  }

  /// The shortest path from `a` to `b`, ignoring altitude.
  public func inverse(from a: GeodeticPosition, to b: GeodeticPosition) -> GeodesicInverse {
    let distance = GreatCircle.distance(from: a, to: b)
    let initial = GreatCircle.bearing(from: a, to: b)
    let back = GreatCircle.bearing(from: b, to: a)
    return GeodesicInverse(
      distanceMeters: distance, initialAzimuthDegrees: initial,
      finalAzimuthDegrees: (back + 180).truncatingRemainder(dividingBy: 360))
  }

  /// Where `distanceMeters` along the geodesic leaving `start` at `azimuthDegrees` ends.
  public func direct(
    from start: GeodeticPosition, azimuthDegrees: Double, distanceMeters: Double
  ) -> GeodesicDirect {
    let end = GreatCircle.destination(
      from: start, bearing: azimuthDegrees, distance: distanceMeters)
    let back = GreatCircle.bearing(from: end, to: start)
    return GeodesicDirect(
      position: end, finalAzimuthDegrees: (back + 180).truncatingRemainder(dividingBy: 360))
  }

  /// The point a `fraction` (0...1) of the way from `a` to `b` along the geodesic, with the
  /// altitude interpolated linearly, and the azimuth of travel there.
  public func interpolate(
    from a: GeodeticPosition, to b: GeodeticPosition, fraction: Double
  ) -> GeodesicDirect {
    let line = inverse(from: a, to: b)
    var result = direct(
      from: a, azimuthDegrees: line.initialAzimuthDegrees,
      distanceMeters: line.distanceMeters * fraction)
    result.position.altitudeMeters =
      a.altitudeMeters + (b.altitudeMeters - a.altitudeMeters) * fraction
    return result
  }
}
