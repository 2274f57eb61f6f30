import Simulation
import Testing

@Suite struct ISO8601Tests {
  @Test func parsesUTCTimesWithAndWithoutAFraction() throws {
    #expect(
      try UTCInstant(iso8601: "2026-11-29T14:39:54Z")
        == UTCInstant(year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54))
    #expect(
      try UTCInstant(iso8601: "2026-11-29T14:39:54.5Z")
        == UTCInstant(
          year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54,
          nanosecond: 500_000_000))
    #expect(
      try UTCInstant(iso8601: "1969-12-31T23:59:59.123456789+00:00")
        == UTCInstant(nanosecondsSinceEpoch: -876_543_211))
    #expect(
      try UTCInstant(iso8601: "2000-02-29T00:00:00Z") == UTCInstant(year: 2000, month: 2, day: 29))
    #expect(try UTCInstant(iso8601: "2024-02-29T23:59:59.000Z").civil.day == 29)
  }

  @Test(arguments: [
    UTCInstant(nanosecondsSinceEpoch: 0),
    UTCInstant(nanosecondsSinceEpoch: 1_795_962_394_000_000_001),
    UTCInstant(year: 1678, month: 1, day: 1),
    UTCInstant(
      year: 2261, month: 12, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 999_999_999),
  ])
  func readsWhatItsDescriptionWrites(instant: UTCInstant) throws {
    #expect(try UTCInstant(iso8601: instant.description) == instant)
  }

  struct Malformed: CustomTestStringConvertible, Sendable {
    let text: String
    let error: ISO8601Error
    let message: String
    var testDescription: String { "'\(text)'" }
  }

  static let shape = "expected a UTC time YYYY-MM-DDTHH:MM:SS[.fraction]Z"

  static let malformed: [Malformed] = [
    Malformed(text: "", error: .malformed, message: shape),
    Malformed(text: "2026-11-29", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54", error: .malformed, message: shape),
    Malformed(text: "2026-11-29 14:39:54Z", error: .malformed, message: shape),
    Malformed(text: "2026-11-29t14:39:54z", error: .malformed, message: shape),
    Malformed(text: "2026-1-29T14:39:54Z", error: .malformed, message: shape),
    Malformed(text: "+2026-11-29T14:39:54Z", error: .malformed, message: shape),
    Malformed(text: "12026-11-29T14:39:54Z", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39Z", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54.Z", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54,5Z", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54ZZ", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54+0000", error: .malformed, message: shape),
    Malformed(text: "2026-11-29T14:39:54 Z", error: .malformed, message: shape),
    Malformed(text: "２０２６-11-29T14:39:54Z", error: .malformed, message: shape),
    Malformed(
      text: "2026-11-29T14:39:54+01:00", error: .notUTC(offset: "+01:00"),
      message: "offset '+01:00' is not UTC (expected Z or +00:00)"),
    Malformed(
      text: "2026-11-29T14:39:54-00:00", error: .notUTC(offset: "-00:00"),
      message: "offset '-00:00' is not UTC (expected Z or +00:00)"),
    Malformed(
      text: "2026-11-29T14:39:54.1234567891Z", error: .tooManyFractionDigits(10),
      message: "10 fraction digits; at most 9 (nanoseconds)"),
    Malformed(
      text: "1677-12-31T00:00:00Z", error: .yearOutOfRange(1677),
      message: "year 1677 is outside 1678...2261"),
    Malformed(
      text: "9999-12-31T00:00:00Z", error: .yearOutOfRange(9999),
      message: "year 9999 is outside 1678...2261"),
    Malformed(
      text: "2026-13-01T00:00:00Z", error: .monthOutOfRange(13),
      message: "month 13 is outside 1...12"),
    Malformed(
      text: "2026-00-01T00:00:00Z", error: .monthOutOfRange(0), message: "month 0 is outside 1...12"
    ),
    Malformed(
      text: "2026-02-29T00:00:00Z", error: .dayOutOfRange(29, year: 2026, month: 2, lastDay: 28),
      message: "day 29 is outside 1...28 in 2026-02"),
    Malformed(
      text: "1900-02-29T00:00:00Z", error: .dayOutOfRange(29, year: 1900, month: 2, lastDay: 28),
      message: "day 29 is outside 1...28 in 1900-02"),
    Malformed(
      text: "2026-04-31T00:00:00Z", error: .dayOutOfRange(31, year: 2026, month: 4, lastDay: 30),
      message: "day 31 is outside 1...30 in 2026-04"),
    Malformed(
      text: "2026-12-00T00:00:00Z", error: .dayOutOfRange(0, year: 2026, month: 12, lastDay: 31),
      message: "day 0 is outside 1...31 in 2026-12"),
    Malformed(
      text: "2026-11-29T24:00:00Z", error: .hourOutOfRange(24),
      message: "hour 24 is outside 0...23"),
    Malformed(
      text: "2026-11-29T12:60:00Z", error: .minuteOutOfRange(60),
      message: "minute 60 is outside 0...59"),
    Malformed(
      text: "2016-12-31T23:59:60Z", error: .leapSecond,
      message:
        "second 60 (a leap second) cannot be given: UTC time here does not count leap seconds"),
    Malformed(
      text: "2026-11-29T12:00:61Z", error: .secondOutOfRange(61),
      message: "second 61 is outside 0...59"),
  ]

  @Test(arguments: malformed) func refusesMalformedTimesAndSaysWhy(_ c: Malformed) {
    #expect(throws: c.error) { try UTCInstant(iso8601: c.text) }
    #expect(c.error.description == c.message)
  }
}
