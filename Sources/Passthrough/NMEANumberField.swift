import Wire

/// A numeric NMEA field that may be signed (`-12.3`, `+000.0`, `045.20`), rewritten in its
/// received shape: as many decimals, zero-padded to its width if it was, with a `+` before a
/// value that is not negative if it had one (Ashtech's `$PASHR,POS` climb).
struct NMEANumberField {
  private let shape: DecimalField
  private let explicitPlus: Bool
  /// The value read.
  let value: Double

  /// Reads the field; nil when empty or malformed.
  init?(_ field: ArraySlice<UInt8>) {
    let negative = field.first == UInt8(ascii: "-")
    explicitPlus = field.first == UInt8(ascii: "+")
    guard let shape = DecimalField(negative || explicitPlus ? field.dropFirst() : field) else {
      return nil
    }
    self.shape = shape
    let magnitude = Double(shape.units) / Double(shape.scale)
    value = negative ? -magnitude : magnitude
  }

  /// The field holding `newValue`, rounded to the received decimals.
  func written(_ newValue: Double) -> [UInt8] {
    let units = Int64((newValue * Double(shape.scale)).rounded())
    let digits = shape.written(units: units)
    return explicitPlus && units >= 0 ? [UInt8(ascii: "+")] + digits : digits
  }
}

extension NMEASentenceText {
  /// Writes `value` into numeric field `index` in its shape; an empty field stays empty; false
  /// when the field is malformed.
  mutating func replaceNumber(_ index: Int, with value: Double) -> Bool {
    let field = self[index]
    if field.isEmpty { return true }
    guard let number = NMEANumberField(field) else { return false }
    set(index, number.written(value))
    return true
  }
}
