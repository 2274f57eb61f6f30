import Testing

@testable import RTCM

/// The lock time indicators against rows of RTCM 10403.3 Tables 3.5-74 and 3.5-75.
@Suite struct MSMLockTimeTests {
  /// (lock time ms, DF402, DF407) from the tables: DF402 i means at least 2^(i+4) ms; DF407
  /// rows 64–95 are 2i − 64 ms, 96–127 4i − 256 ms, …, 672–703 1048576i − 671088640 ms.
  static let rows: [(Int, Int, Int)] = [
    (0, 0, 0), (31, 0, 31), (32, 1, 32), (63, 1, 63), (64, 2, 64), (100, 2, 82),
    (1000, 5, 190), (64_500, 11, 382), (65_536, 12, 384), (600_000, 15, 484),
    (67_108_863, 15, 703), (100_000_000, 15, 704),
  ]

  @Test func indicatorsFollowTheTables() {
    for (milliseconds, indicator, extended) in Self.rows {
      #expect(MSMLockTime.indicator(milliseconds: milliseconds) == indicator, "\(milliseconds)")
      #expect(
        MSMLockTime.extendedIndicator(milliseconds: milliseconds) == extended, "\(milliseconds)")
    }
  }

  @Test func everyExtendedIndicatorStandsForTheStartOfItsStep() {
    for indicator in 0...704 {
      let start = MSMLockTime.minimumMilliseconds(extendedIndicator: indicator)
      #expect(MSMLockTime.extendedIndicator(milliseconds: start) == indicator, "\(indicator)")
    }
    #expect(MSMLockTime.minimumMilliseconds(extendedIndicator: 672) == 33_554_432)
    #expect(MSMLockTime.minimumMilliseconds(extendedIndicator: 704) == 67_108_864)
  }

  @Test func everyIndicatorStandsForTheStartOfItsRange() {
    for indicator in 0...15 {
      let start = MSMLockTime.minimumMilliseconds(indicator: indicator)
      #expect(MSMLockTime.indicator(milliseconds: start) == indicator, "\(indicator)")
    }
  }
}
