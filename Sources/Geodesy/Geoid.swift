/// Height of the geoid (mean sea level) above the WGS-84 ellipsoid, as a receiver reports it in
/// GGA.
public protocol GeoidModel: Sendable {
  /// The geoid separation in meters at a latitude and longitude in degrees.
  func separationMeters(latitude: Double, longitude: Double) -> Double
}

/// EGM96 at the coarse resolution receivers carry: a 10°×10° grid, interpolated bilinearly.
///
/// 10° because that is what the receivers we emulate report: in gpsd's logs a u-blox NEO-M8N,
/// NEO-M9N and ZED-F9P give separations within 0.2 m of this grid and up to 3 m away from the
/// 15′ model (the tests check it), whereas a SiRFstar V follows the finer model (gpsd 3.22's own
/// table is 5°). Against the 15′ model it is off by 1.6 m at the median, 7 m at the 95th
/// percentile and 26 m at worst (over steep ranges and trenches). The 684 nodes are copied from PROJ's `egm96_15.gtx` by
/// `scripts/geoid/make-table` (see `EGM96Table.swift` for the source and licence), in
/// decimeters. Longitudes wrap around (any value is taken modulo 360°); latitudes beyond ±90°
/// are clamped to the pole, where every column holds the same value.
public struct EGM96Geoid: GeoidModel {
  /// The spacing of the grid's nodes, in degrees.
  public static let gridStepDegrees = 10.0
  static let rows = 19
  static let columns = 36

  /// Creates the model.
  public init() {}

  /// The geoid height at the node `row` (0 at 90° S) and `column` (0 at 180° W), in meters.
  static func node(row: Int, column: Int) -> Double {
    Double(decimeters[row * columns + column % columns]) / 10
  }

  public func separationMeters(latitude: Double, longitude: Double) -> Double {
    guard latitude.isFinite, longitude.isFinite else { return 0 }
    let step = Self.gridStepDegrees
    let y = (min(max(latitude, -90), 90) + 90) / step
    var x = (longitude + 180).truncatingRemainder(dividingBy: 360)
    if x < 0 { x += 360 }
    x /= step
    let row = min(Int(y), Self.rows - 2)
    let column = min(Int(x), Self.columns - 1)
    let fy = y - Double(row)
    let fx = x - Double(column)
    let south =
      Self.node(row: row, column: column) * (1 - fx) + Self.node(row: row, column: column + 1) * fx
    let north =
      Self.node(row: row + 1, column: column) * (1 - fx)
      + Self.node(row: row + 1, column: column + 1) * fx
    return south * (1 - fy) + north * fy
  }
}
