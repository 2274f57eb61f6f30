/// A point in WGS-84 Earth-centred, Earth-fixed coordinates (ECEF), meters: x towards 0° N 0° E,
/// y towards 0° N 90° E, z towards the North Pole.
public struct EarthCenteredPosition: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var z: Double

  /// Creates a point from its coordinates in meters.
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The point at a geodetic position, its altitude taken as height above the ellipsoid.
  public init(_ position: GeodeticPosition) {
    self.init(
      latitude: position.latitude, longitude: position.longitude,
      heightAboveEllipsoidMeters: position.altitudeMeters)
  }

  /// The point at a latitude and longitude (degrees) and a height above the ellipsoid (meters).
  public init(latitude: Double, longitude: Double, heightAboveEllipsoidMeters height: Double) {
    let ellipsoid = Geodesic.wgs84
    let e2 = ellipsoid.flattening * (2 - ellipsoid.flattening)
    let phi = latitude.radians
    let lambda = longitude.radians
    let sinPhi = sine(phi)
    let cosPhi = cosine(phi)
    let primeVerticalRadius =
      ellipsoid.equatorialRadiusMeters / (1 - e2 * sinPhi * sinPhi).squareRoot()
    self.init(
      x: (primeVerticalRadius + height) * cosPhi * cosine(lambda),
      y: (primeVerticalRadius + height) * cosPhi * sine(lambda),
      z: (primeVerticalRadius * (1 - e2) + height) * sinPhi)
  }
}
