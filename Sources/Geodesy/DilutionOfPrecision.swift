/// Dilution of precision from the directions of the satellites used in a fix.
///
/// Builds the geometry matrix G, one row `[-cos(el)·sin(az), -cos(el)·cos(az), -sin(el), 1]` per
/// satellite (east, north, up, clock), and reads the DOPs off the diagonal of (GᵀG)⁻¹.
public struct DilutionOfPrecision: Hashable, Sendable {
  public var position: Double
  public var horizontal: Double
  public var vertical: Double
  public var time: Double
  /// The east and north parts of `horizontal` (east² + north² = horizontal²).
  public var east: Double
  public var north: Double
  /// The east-north cofactor of (GᵀG)⁻¹: with `east` and `north` it gives the orientation of
  /// the horizontal error ellipse that GST reports.
  public var eastNorthCofactor: Double

  /// Creates DOPs from known values; without a geometry the horizontal DOP is shared equally
  /// between east and north.
  public init(
    position: Double, horizontal: Double, vertical: Double, time: Double, east: Double? = nil,
    north: Double? = nil, eastNorthCofactor: Double = 0
  ) {
    self.position = position
    self.horizontal = horizontal
    self.vertical = vertical
    self.time = time
    self.east = east ?? horizontal / 2.0.squareRoot()
    self.north = north ?? horizontal / 2.0.squareRoot()
    self.eastNorthCofactor = eastNorthCofactor
  }

  /// The DOPs of a set of satellite directions (degrees), or nil with fewer than four satellites
  /// or a degenerate geometry.
  public init?(directions: [(azimuth: Double, elevation: Double)]) {
    guard directions.count >= 4 else { return nil }
    var normal = SquareMatrix4.zero
    for direction in directions {
      let el = direction.elevation.radians
      let az = direction.azimuth.radians
      let cosineOfElevation = cosine(el)
      let row: InlineArray<4, Double> = [
        -cosineOfElevation * sine(az), -cosineOfElevation * cosine(az), -sine(el), 1,
      ]
      for i in 0..<4 {
        for j in 0..<4 { normal[i, j] += row[i] * row[j] }
      }
    }
    guard let inverse = normal.inverse else { return nil }
    let east = inverse[0, 0]
    let north = inverse[1, 1]
    let up = inverse[2, 2]
    let clock = inverse[3, 3]
    guard east >= 0, north >= 0, up >= 0, clock >= 0 else { return nil }
    self.init(
      position: (east + north + up).squareRoot(), horizontal: (east + north).squareRoot(),
      vertical: up.squareRoot(), time: clock.squareRoot(), east: east.squareRoot(),
      north: north.squareRoot(), eastNorthCofactor: inverse[0, 1])
  }
}
