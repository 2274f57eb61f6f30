import Simulation
import Testing

/// GPS time from UTC: weeks since 1980-01-06 and GPS − UTC from the leap-second table.
@Suite struct GPSTimeTests {
  @Test func gpsEpochIsWeekZero() {
    let time = GPSTime(GPSTime.epoch)
    #expect(time.week == 0)
    #expect(time.nanosecondsOfWeek == 0)
    #expect(time.leapSeconds == 0)
  }

  /// The fixture almanac's toa, by hand: week 2197 began on Sunday 2022-02-13 (15,379 days after
  /// 1980-01-06: 42 × 365 + 11 leap days to 2022-01-06, then 38 days; 15,379 = 7 × 2197).
  /// Thursday 16:38:06 UTC is 4 × 86,400 + 59,886 = 405,486 s of UTC into the week, and GPS −
  /// UTC has been 18 s since 2017-01-01 (IERS Bulletin C), so 405,504 s of GPS time.
  @Test func almanacTimeOfApplicability() throws {
    let time = GPSTime(try UTCInstant(iso8601: "2022-02-17T16:38:06Z"))
    #expect(time.week == 2197)
    #expect(time.week % 1024 == 149)
    #expect(time.nanosecondsOfWeek == 405_504_000_000_000)
    #expect(time.leapSeconds == 18)
  }

  @Test func leapSecondOf2017CountsFromItsInsertion() throws {
    let before = GPSTime(try UTCInstant(iso8601: "2016-12-31T23:59:59Z"))
    let after = GPSTime(try UTCInstant(iso8601: "2017-01-01T00:00:00Z"))
    #expect(before.leapSeconds == 17)
    #expect(after.leapSeconds == 18)
    // The inserted second 23:59:60 has no UTCInstant, so GPS time steps by two.
    #expect(after.nanosecondsSinceEpoch - before.nanosecondsSinceEpoch == 2_000_000_000)
  }

  @Test func weekRollsOverAtSundayMidnightGPSTime() throws {
    // 2022-02-12T23:59:42Z UTC is 2022-02-13T00:00:00 GPS time: week 2197 starts.
    let start = GPSTime(try UTCInstant(iso8601: "2022-02-12T23:59:42Z"))
    #expect(start.week == 2197)
    #expect(start.nanosecondsOfWeek == 0)
    let last = GPSTime(try UTCInstant(iso8601: "2022-02-12T23:59:41Z"))
    #expect(last.week == 2196)
    #expect(last.secondsOfWeek == 604_799)
  }
}
