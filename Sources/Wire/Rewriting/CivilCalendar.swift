import Simulation

/// Days since 1970-01-01 and back, in the proleptic Gregorian calendar, on `CivilDate`'s
/// conversions, for the years a receiver writes.
enum CivilCalendar {
  /// The years a date may have: a field of more digits is left as recorded.
  static let years: ClosedRange<Int64> = 0...9999

  /// The day number of a date, or nil when the year, month or day does not exist.
  static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
    guard years.contains(year), (1...12).contains(month), day >= 1,
      day <= UTCInstant.daysIn(month: Int(month), year: Int(year))
    else { return nil }
    return Int64(CivilDate.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
  }

  /// The date of a day number.
  static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let civil = CivilDate.fromDaysSinceEpoch(Int(days))
    return (Int64(civil.year), Int64(civil.month), Int64(civil.day))
  }

  /// The year of a two-digit NMEA year: 80–99 are 1980–1999, 00–79 are 2000–2079.
  static func year(twoDigits: Int64) -> Int64 {
    twoDigits >= 80 ? 1900 + twoDigits : 2000 + twoDigits
  }
}

/// Division rounding down and its remainder, which is never negative for a positive divisor.
@inline(__always) package func floorDivision(_ a: Int64, _ b: Int64) -> (
  quotient: Int64, remainder: Int64
) {
  let q = a / b
  let r = a - q * b
  return r < 0 ? (q - 1, r + b) : (q, r)
}

/// `value / unit` rounded to the nearest integer, halves away from zero.
@inline(__always) func roundedDivision(_ value: Int64, _ unit: Int64) -> Int64 {
  value >= 0 ? (value + unit / 2) / unit : -((-value + unit / 2) / unit)
}
