extension NumberSpelling {
  /// The powers of ten that a `Double` holds exactly, up to the most fraction digits
  /// `shortDecimal` reads.
  static let exactPowersOfTen: [Double] = (0...15).map { pow10($0) }

  /// Ten to the power `exponent`, by multiplying (exact up to 10^22).
  private static func pow10(_ exponent: Int) -> Double {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
  }

  /// `[-]digits[.digits]` with at most 15 digits, or nil for any other text (`value(ofScanned:)`
  /// then asks the standard library).
  ///
  /// The digits make an integer below 2^53 and the divisor is a power of ten up to 10^15, both
  /// exact in a `Double`, so the one division is correctly rounded: the result is the same as
  /// `strtod`'s (Clinger's fast path).
  static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard var cursor = bytes.baseAddress else { return nil }
    let end = cursor + bytes.count
    let negative = cursor < end && cursor.pointee == UInt8(ascii: "-")
    if negative { cursor += 1 }
    var mantissa: Int64 = 0
    // Wraps only past 18 digits, which are refused below.
    let integerStart = cursor
    while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
      mantissa = mantissa &* 10 &+ Int64(digit)
      cursor += 1
    }
    let integerDigits = cursor - integerStart
    var fractionDigits = 0
    if integerDigits > 0, cursor < end, cursor.pointee == UInt8(ascii: ".") {
      cursor += 1
      let fractionStart = cursor
      while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
        mantissa = mantissa &* 10 &+ Int64(digit)
        cursor += 1
      }
      fractionDigits = cursor - fractionStart
      guard fractionDigits > 0 else { return nil }
    }
    guard cursor == end, integerDigits > 0, integerDigits + fractionDigits <= 15 else {
      return nil
    }
    let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -magnitude : magnitude
  }
}
