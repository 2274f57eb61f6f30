/// `NMEADecimal` is mockgps's one fixed-point formatter: NMEA fields, the control socket's JSON,
/// the PMTK replies and the command line's summaries all write a number with N decimals
/// through it.
///
/// Rounding: `init(_:fractionDigits:)` rounds half away from zero the product of the value and
/// 10^N as a `Double` (`(value * 10^N).rounded()`), which is what every NMEA test pins (`0.125`
/// at 2 digits is `0.13`). A count of whole units (milliseconds, meters) is exact and goes
/// through `init(units:fractionDigits:)` instead.
extension NMEADecimal {
  /// `units` of 10^-`fractionDigits` as a number with that many decimals: 1500 units at 3
  /// digits is `1.500`, -7 at 1 digit `-0.7`.
  public init(units: Int64, fractionDigits: Int) {
    self.init(
      scaled: units.magnitude, fractionDigits: fractionDigits > 0 ? fractionDigits : nil,
      isNegative: units < 0)
  }

  /// The same value with the zeros that end its fraction dropped, and the point too when none
  /// is left: `12.50` is `12.5`, `3.000` is `3`.
  public var trimmingTrailingZeros: NMEADecimal {
    var result = self
    while let digits = result.fractionDigits, digits > 0, result.scaled % 10 == 0 {
      result.scaled /= 10
      result.fractionDigits = digits - 1
    }
    if result.fractionDigits == 0 { result.fractionDigits = nil }
    return result
  }

  /// 10^`exponent` as a `Double` (exact up to 10^22); 1 for an exponent below 1.
  public static func powerOfTen(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<max(0, exponent) { result *= 10 }
    return result
  }
}
