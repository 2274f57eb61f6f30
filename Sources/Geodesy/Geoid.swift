/// Height of the geoid (mean sea level) above the WGS-84 ellipsoid, as a receiver reports it in
/// GGA.
public protocol GeoidModel: Sendable {
  /// The geoid separation in meters at a latitude and longitude in degrees.
  func separationMeters(latitude: Double, longitude: Double) -> Double
}

/// EGM96 at the coarse resolution receivers carry.
///
/// PLACEHOLDER (issue 8 contract): 0 everywhere until the geoid helper replaces this file.
public struct EGM96Geoid: GeoidModel {
  /// Creates the model.
  public init() {}

  public func separationMeters(latitude: Double, longitude: Double) -> Double { 0 }
}
