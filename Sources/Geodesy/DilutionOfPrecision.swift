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
    var normal = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
    for direction in directions {
      let el = direction.elevation.radians
      let az = direction.azimuth.radians
      let row = [-cosine(el) * sine(az), -cosine(el) * cosine(az), -sine(el), 1]
      for i in 0..<4 {
        for j in 0..<4 { normal[i][j] += row[i] * row[j] }
      }
    }
    guard let inverse = Self.invert(normal) else { return nil }
    let east = inverse[0][0]
    let north = inverse[1][1]
    let up = inverse[2][2]
    let clock = inverse[3][3]
    guard east >= 0, north >= 0, up >= 0, clock >= 0 else { return nil }
    self.init(
      position: (east + north + up).squareRoot(), horizontal: (east + north).squareRoot(),
      vertical: up.squareRoot(), time: clock.squareRoot(), east: east.squareRoot(),
      north: north.squareRoot(), eastNorthCofactor: inverse[0][1])
  }

  /// Gauss-Jordan inversion with partial pivoting; nil for a singular matrix.
  static func invert(_ matrix: [[Double]]) -> [[Double]]? {
    let n = matrix.count
    var a = matrix
    var inverse = (0..<n).map { i in (0..<n).map { j in i == j ? 1.0 : 0.0 } }
    for column in 0..<n {
      guard
        let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
        abs(a[pivot][column]) > 1e-12
      else { return nil }
      a.swapAt(column, pivot)
      inverse.swapAt(column, pivot)
      let scale = a[column][column]
      for j in 0..<n {
        a[column][j] /= scale
        inverse[column][j] /= scale
      }
      for row in 0..<n where row != column {
        let factor = a[row][column]
        guard factor != 0 else { continue }
        for j in 0..<n {
          a[row][j] -= factor * a[column][j]
          inverse[row][j] -= factor * inverse[column][j]
        }
      }
    }
    return inverse
  }
}
