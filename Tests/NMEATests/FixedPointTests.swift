import NMEA
import Testing

/// `NMEADecimal` as mockgps's one fixed-point formatter: whole units, trailing zeros cut, and
/// the one rounding (half away from zero of value × 10^N).
@Suite struct FixedPointTests {
  @Test func unitsAreWrittenWithTheirDecimals() {
    #expect(NMEADecimal(units: 1500, fractionDigits: 3).description == "1.500")
    #expect(NMEADecimal(units: 7, fractionDigits: 3).description == "0.007")
    #expect(NMEADecimal(units: -7, fractionDigits: 1).description == "-0.7")
    #expect(NMEADecimal(units: 0, fractionDigits: 2).description == "0.00")
    #expect(NMEADecimal(units: 42, fractionDigits: 0).description == "42")
  }

  @Test func trailingZerosAndAnEmptyFractionAreCut() {
    #expect(NMEADecimal(12.5, fractionDigits: 3).trimmingTrailingZeros.description == "12.5")
    #expect(NMEADecimal(3, fractionDigits: 3).trimmingTrailingZeros.description == "3")
    #expect(NMEADecimal(-0.0001, fractionDigits: 3).trimmingTrailingZeros.description == "0")
    #expect(NMEADecimal(0.05, fractionDigits: 2).trimmingTrailingZeros.description == "0.05")
    #expect(NMEADecimal(100, fractionDigits: 0).trimmingTrailingZeros.description == "100")
  }

  /// Halves go away from zero, on the product as a `Double`: `0.125` (exact in binary) at 2
  /// digits is `0.13`, `-2.5` at none is `-3`; `1.005` is `1.00` (its product is 100.4999…).
  @Test func halvesRoundAwayFromZero() {
    #expect(NMEADecimal(0.125, fractionDigits: 2).description == "0.13")
    #expect(NMEADecimal(-0.125, fractionDigits: 2).description == "-0.13")
    #expect(NMEADecimal(-2.5, fractionDigits: 0).description == "-3")
    #expect(NMEADecimal(1.005, fractionDigits: 2).description == "1.00")
  }

  @Test func powersOfTenAreExact() {
    #expect(NMEADecimal.powerOfTen(0) == 1)
    #expect(NMEADecimal.powerOfTen(-1) == 1)
    #expect(NMEADecimal.powerOfTen(15) == 1e15)
  }
}
