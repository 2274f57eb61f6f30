/// Where a point lies as seen from a place on the ground: its azimuth, elevation and range.
public struct TopocentricDirection: Hashable, Sendable {
  /// Degrees clockwise from true north, 0 up to but excluding 360.
  public var azimuthDegrees: Double
  /// Degrees above the local horizon (the plane normal to the ellipsoid's vertical), −90…90.
  public var elevationDegrees: Double
  /// Straight-line distance, meters.
  public var rangeMeters: Double

  /// The direction of `target` from `observer` (its altitude taken as height above the
  /// ellipsoid).
  public init(of target: EarthCenteredPosition, from observer: GeodeticPosition) {
    self = LocalTangentFrame(at: observer).direction(of: target)
  }

  /// Creates a direction from its parts.
  public init(azimuthDegrees: Double, elevationDegrees: Double, rangeMeters: Double) {
    self.azimuthDegrees = azimuthDegrees
    self.elevationDegrees = elevationDegrees
    self.rangeMeters = rangeMeters
  }
}

/// The east-north-up axes at a place: built once, then cheap for many targets (four sines and
/// cosines in all, none per target until an angle is asked for).
public struct LocalTangentFrame: Hashable, Sendable {
  /// The place, in ECEF.
  public var origin: EarthCenteredPosition
  private let sinLatitude: Double
  private let cosLatitude: Double
  private let sinLongitude: Double
  private let cosLongitude: Double

  /// The frame at a geodetic position, its altitude taken as height above the ellipsoid.
  public init(at position: GeodeticPosition) {
    origin = EarthCenteredPosition(position)
    sinLatitude = sine(position.latitude.radians)
    cosLatitude = cosine(position.latitude.radians)
    sinLongitude = sine(position.longitude.radians)
    cosLongitude = cosine(position.longitude.radians)
  }

  /// The east, north and up components of the vector from the origin to `target`, meters.
  public func eastNorthUp(of target: EarthCenteredPosition) -> (
    east: Double, north: Double, up: Double
  ) {
    let dx = target.x - origin.x
    let dy = target.y - origin.y
    let dz = target.z - origin.z
    let alongMeridian = cosLongitude * dx + sinLongitude * dy
    return (
      east: -sinLongitude * dx + cosLongitude * dy,
      north: -sinLatitude * alongMeridian + cosLatitude * dz,
      up: cosLatitude * alongMeridian + sinLatitude * dz
    )
  }

  /// Azimuth, elevation and range of `target`.
  public func direction(of target: EarthCenteredPosition) -> TopocentricDirection {
    let (east, north, up) = eastNorthUp(of: target)
    return Self.direction(east: east, north: north, up: up)
  }

  /// Azimuth, elevation and range of a vector given by its east, north and up components
  /// (angles within 1e-6° of libm's, from `polynomialArcTangent2`).
  public static func direction(east: Double, north: Double, up: Double) -> TopocentricDirection {
    let horizontalSquared = east * east + north * north
    var azimuth = polynomialArcTangent2(east, north).degrees
    if azimuth < 0 { azimuth += 360 }
    if azimuth >= 360 { azimuth -= 360 }
    return TopocentricDirection(
      azimuthDegrees: azimuth,
      elevationDegrees: polynomialArcTangent2(up, horizontalSquared.squareRoot()).degrees,
      rangeMeters: (horizontalSquared + up * up).squareRoot())
  }
}
