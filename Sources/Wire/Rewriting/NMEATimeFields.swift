/// The time and date fields of NMEA sentences: `hhmmss.ss` (any number of decimals, kept),
/// `ddmmyy`, and ZDA's separate day, month and four-digit year.
enum NMEATimeFields {
  static let secondsPerDay: Int64 = 86_400

  /// A `hhmmss[.s…]` field as units of its last digit since midnight, or nil when it is not
  /// six digits of a time of day (a leap second, `60`, is accepted).
  static func timeOfDay(_ field: ArraySlice<UInt8>) -> (DecimalField, units: Int64)? {
    guard let value = DecimalField(field), value.integerDigits == 6 else { return nil }
    let whole = value.units / value.scale
    let (hours, minutes, seconds) = (whole / 10_000, whole / 100 % 100, whole % 100)
    guard hours < 24, minutes < 60, seconds <= 60 else { return nil }
    let units = ((hours * 60 + minutes) * 60 + seconds) * value.scale + value.units % value.scale
    return (value, units)
  }

  /// `units` since midnight (less than a day) written like `shape`.
  static func timeOfDayField(units: Int64, like shape: DecimalField) -> [UInt8] {
    let whole = units / shape.scale
    let (hours, minutes, seconds) = (whole / 3600, whole / 60 % 60, whole % 60)
    let clock = (hours * 100 + minutes) * 100 + seconds
    var fixed = shape
    fixed.zeroPadded = true
    fixed.integerDigits = 6
    return fixed.written(units: clock * shape.scale + units % shape.scale)
  }

  /// A `ddmmyy` field as a day number since 1970, or nil when it is not such a date.
  static func dayMonthYear(_ field: ArraySlice<UInt8>) -> Int64? {
    guard field.count == 6, let value = DecimalField(field), value.decimals == 0 else { return nil }
    let (day, month, year) = (value.units / 10_000, value.units / 100 % 100, value.units % 100)
    return CivilCalendar.days(year: CivilCalendar.year(twoDigits: year), month: month, day: day)
  }

  /// A day number written as `ddmmyy`.
  static func dayMonthYearField(days: Int64) -> [UInt8] {
    let date = CivilCalendar.date(days: days)
    let value = (date.day * 100 + date.month) * 100 + floorDivision(date.year, 100).remainder
    return DecimalField.digits(UInt64(value), width: 6)
  }
}
