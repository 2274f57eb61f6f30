/// Days since 1970-01-01 and back, in the proleptic Gregorian calendar (H. Hinnant's
/// `days_from_civil` and `civil_from_days`), in integers only.
enum CivilCalendar {
  /// The day number of a date, or nil when the month or day does not exist.
  static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
      return nil
    }
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day number.
  static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// 28 to 31.
  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The year of a two-digit NMEA year: 80–99 are 1980–1999, 00–79 are 2000–2079.
  static func year(twoDigits: Int64) -> Int64 {
    twoDigits >= 80 ? 1900 + twoDigits : 2000 + twoDigits
  }
}

/// Division rounding down and its remainder, which is never negative for a positive divisor.
@inline(__always) func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64)
{
  let q = a / b
  let r = a - q * b
  return r < 0 ? (q - 1, r + b) : (q, r)
}

/// `value / unit` rounded to the nearest integer, halves away from zero.
@inline(__always) func roundedDivision(_ value: Int64, _ unit: Int64) -> Int64 {
  value >= 0 ? (value + unit / 2) / unit : -((-value + unit / 2) / unit)
}
