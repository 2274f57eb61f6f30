/// A point on the WGS-84 ellipsoid: latitude and longitude in degrees, altitude in meters above
/// mean sea level.
public struct GeodeticPosition: Hashable, Sendable, CustomStringConvertible {
  /// Degrees, -90 (south) to 90 (north).
  public let latitude: Double
  /// Degrees, -180 (west) to 180 (east).
  public let longitude: Double
  /// Meters above mean sea level.
  public var altitudeMeters: Double

  /// Why a position was refused.
  public enum RangeError: Error, Hashable, Sendable, CustomStringConvertible {
    case latitude(Double)
    case longitude(Double)
    case altitude(Double)

    public var description: String {
      switch self {
      case .latitude(let value): return "latitude \(value) is outside -90...90"
      case .longitude(let value): return "longitude \(value) is outside -180...180"
      case .altitude(let value): return "altitude \(value) is outside -1000...100000 m"
      }
    }
  }

  /// Creates a position, checking every coordinate's range.
  ///
  /// - Throws: `RangeError` naming the coordinate that is out of range or not a number.
  public init(latitude: Double, longitude: Double, altitudeMeters: Double = 0) throws(RangeError) {
    guard latitude.isFinite, (-90...90).contains(latitude) else { throw .latitude(latitude) }
    guard longitude.isFinite, (-180...180).contains(longitude) else {
      throw .longitude(longitude)
    }
    guard altitudeMeters.isFinite, (-1000...100_000).contains(altitudeMeters) else {
      throw .altitude(altitudeMeters)
    }
    self.latitude = latitude
    self.longitude = longitude
    self.altitudeMeters = altitudeMeters
  }

  /// Creates a position known to be in range, such as a constant; traps when it is not.
  public init(known latitude: Double, _ longitude: Double, altitudeMeters: Double = 0) {
    precondition((-90...90).contains(latitude) && (-180...180).contains(longitude))
    self.latitude = latitude
    self.longitude = longitude
    self.altitudeMeters = altitudeMeters
  }

  public var description: String { "\(latitude),\(longitude),\(altitudeMeters)" }
}
