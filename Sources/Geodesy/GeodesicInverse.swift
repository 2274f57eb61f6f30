/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Hashable, Sendable {
  /// The length of the geodesic, meters.
  public var distanceMeters: Double
  /// The azimuth at the first point, degrees clockwise from north, 0 to less than 360.
  public var initialAzimuthDegrees: Double
  /// The azimuth at the second point (the direction of travel on arrival), 0 to less than 360.
  public var finalAzimuthDegrees: Double
}
