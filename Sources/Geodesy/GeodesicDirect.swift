/// The solution of the direct geodesic problem.
public struct GeodesicDirect: Hashable, Sendable {
  /// Where the geodesic ends; its altitude is the start's (or, from `interpolate`, interpolated
  /// linearly between the ends).
  public var position: GeodeticPosition
  /// The azimuth there, degrees clockwise from north, 0 to less than 360.
  public var finalAzimuthDegrees: Double
}
