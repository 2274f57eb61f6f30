/// A 4×4 matrix of doubles, row by row, held inline: the normal matrix of a DOP, built and
/// inverted every epoch without allocating.
struct SquareMatrix4 {
  private var elements: InlineArray<16, Double>

  /// All zeros.
  static var zero: SquareMatrix4 { SquareMatrix4(elements: InlineArray(repeating: 0)) }

  /// The identity.
  static var identity: SquareMatrix4 {
    var matrix = zero
    for i in 0..<4 { matrix[i, i] = 1 }
    return matrix
  }

  subscript(row: Int, column: Int) -> Double {
    get { elements[row * 4 + column] }
    set { elements[row * 4 + column] = newValue }
  }

  /// Swaps two rows.
  mutating func swapRows(_ first: Int, _ second: Int) {
    guard first != second else { return }
    for column in 0..<4 { elements.swapAt(first * 4 + column, second * 4 + column) }
  }

  /// The inverse by Gauss-Jordan elimination with partial pivoting, or nil when a pivot is
  /// (nearly) zero: the geometry does not fix the solution.
  var inverse: SquareMatrix4? {
    var a = self
    var inverse = SquareMatrix4.identity
    for column in 0..<4 {
      guard
        let pivot = (column..<4).max(by: { abs(a[$0, column]) < abs(a[$1, column]) }),
        abs(a[pivot, column]) > 1e-12
      else { return nil }
      a.swapRows(column, pivot)
      inverse.swapRows(column, pivot)
      let scale = a[column, column]
      for j in 0..<4 {
        a[column, j] /= scale
        inverse[column, j] /= scale
      }
      for row in 0..<4 where row != column {
        let factor = a[row, column]
        guard factor != 0 else { continue }
        for j in 0..<4 {
          a[row, j] -= factor * a[column, j]
          inverse[row, j] -= factor * inverse[column, j]
        }
      }
    }
    return inverse
  }
}
