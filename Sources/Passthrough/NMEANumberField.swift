import Replay

/// A numeric NMEA field that may be negative (`-12.3`, `045.20`), rewritten in its received
/// shape: as many decimals, zero-padded to its width if it was.
struct NMEANumberField {
  private let shape: DecimalField
  /// The value read.
  let value: Double

  /// Reads the field; nil when empty or malformed.
  init?(_ field: ArraySlice<UInt8>) {
    let negative = field.first == UInt8(ascii: "-")
    guard let shape = DecimalField(negative ? field.dropFirst() : field) else { return nil }
    self.shape = shape
    let magnitude = Double(shape.units) / Double(shape.scale)
    value = negative ? -magnitude : magnitude
  }

  /// The field holding `newValue`, rounded to the received decimals.
  func written(_ newValue: Double) -> [UInt8] {
    let units = Int64((newValue * Double(shape.scale)).rounded())
    return shape.written(units: units)
  }
}
