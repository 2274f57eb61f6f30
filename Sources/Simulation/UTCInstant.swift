/// A moment in UTC as whole nanoseconds since 1970-01-01T00:00:00Z (leap seconds not counted,
/// as in POSIX time).
public struct UTCInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
  public static let nanosecondsPerSecond: Int64 = 1_000_000_000
  public static let nanosecondsPerDay: Int64 = 86_400 * nanosecondsPerSecond

  /// Nanoseconds since the Unix epoch.
  public var nanoseconds: Int64

  /// Creates an instant from nanoseconds since the Unix epoch.
  public init(nanosecondsSinceEpoch: Int64) {
    nanoseconds = nanosecondsSinceEpoch
  }

  /// Creates an instant from a civil UTC date and time.
  public init(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
    nanosecond: Int = 0
  ) {
    let days = Int64(CivilDate.daysSinceEpoch(year: year, month: month, day: day))
    let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    nanoseconds = seconds * Self.nanosecondsPerSecond + Int64(nanosecond)
  }

  /// The instant `nanoseconds` later, or the first or last instant there is (years 1677 and
  /// 2262) when that is beyond them: never a trap, whatever the delta.
  public func adding(nanoseconds delta: Int64) -> UTCInstant {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
    return UTCInstant(nanosecondsSinceEpoch: overflow ? (delta < 0 ? .min : .max) : sum)
  }

  /// Whole nanoseconds from a number of them, rounded, clamped to what an `Int64` holds; 0 for
  /// NaN. For durations computed in floating point, which `Int64(_:)` would trap on.
  public static func clampedNanoseconds(
    _ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  ) -> Int64 {
    guard !value.isNaN else { return 0 }
    let rounded = value.rounded(rule)
    if rounded >= 9.2e18 { return .max }
    if rounded <= -9.2e18 { return .min }
    return Int64(rounded)
  }

  /// Nanoseconds from `earlier` to this instant, clamped to what an `Int64` holds (292 years
  /// either way).
  public func nanoseconds(since earlier: UTCInstant) -> Int64 {
    let (difference, overflow) = nanoseconds.subtractingReportingOverflow(earlier.nanoseconds)
    return overflow ? (earlier.nanoseconds > 0 ? .min : .max) : difference
  }

  /// The nearest instant that is a whole multiple of `step` nanoseconds.
  public func rounded(toMultipleOf step: Int64) -> UTCInstant {
    let remainder = ((nanoseconds % step) + step) % step
    let down = nanoseconds - remainder
    return UTCInstant(nanosecondsSinceEpoch: remainder * 2 >= step ? down + step : down)
  }

  /// The start of this instant's UTC day.
  public var startOfDay: UTCInstant {
    let day =
      nanoseconds >= 0
      ? nanoseconds / Self.nanosecondsPerDay
      : (nanoseconds - Self.nanosecondsPerDay + 1) / Self.nanosecondsPerDay
    return UTCInstant(nanosecondsSinceEpoch: day * Self.nanosecondsPerDay)
  }

  /// The civil date and time of day.
  public var civil: CivilDate {
    let sinceMidnight = nanoseconds - startOfDay.nanoseconds
    let days = Int((startOfDay.nanoseconds / Self.nanosecondsPerDay))
    let (year, month, day) = CivilDate.fromDaysSinceEpoch(days)
    let seconds = Int(sinceMidnight / Self.nanosecondsPerSecond)
    return CivilDate(
      year: year, month: month, day: day, hour: seconds / 3600, minute: seconds % 3600 / 60,
      second: seconds % 60, nanosecond: Int(sinceMidnight % Self.nanosecondsPerSecond))
  }

  public static func < (lhs: UTCInstant, rhs: UTCInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// ISO 8601 in UTC with the decimals it needs: `2026-11-29T14:39:54Z`.
  public var description: String { civil.description }
}

/// A UTC date and time broken into its calendar fields.
public struct CivilDate: Hashable, Sendable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  public var nanosecond: Int

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day count from 1970-01-01 (Howard Hinnant's `civil_from_days`).
  public static func fromDaysSinceEpoch(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// ISO 8601 in UTC, with as many decimals of the second as it needs:
  /// `2026-11-30T00:00:00Z`, `2026-11-30T00:00:00.25Z`.
  public var description: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var fraction = nanosecond == 0 ? "" : "." + pad(nanosecond, 9)
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):"
      + "\(pad(second, 2))\(fraction)Z"
  }
}
