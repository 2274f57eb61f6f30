/// Moves an NMEA sentence's time, date and GPS week fields by a shift, keeping each field's
/// recorded precision: the shift is rounded to the time field's last digit, so a sentence
/// written in whole seconds stays in whole seconds.
///
/// A time without a date moves modulo 24 hours. A date whose time field is empty moves as if
/// its time were noon. Two-digit years are 1980–2079.
struct NMEATimeShift {
  let shiftNanoseconds: Int64

  private static let secondsPerWeek: Int64 = 604_800

  /// Shifts the time field and the date fields; false when one is malformed.
  func shiftTimeAndDate(
    of sentence: inout NMEASentenceText, time timeIndex: Int, date: NMEASentenceLayout.DateFields?
  ) -> Bool {
    var time: (index: Int, shape: DecimalField, units: Int64)?
    if !sentence[timeIndex].isEmpty {
      guard let parsed = NMEATimeFields.timeOfDay(sentence[timeIndex]) else {
        return false
      }
      time = (timeIndex, parsed.0, parsed.units)
    }
    guard let days = readDate(date, of: sentence) else { return false }
    let scale = time?.shape.scale ?? 1
    let shiftUnits = roundedDivision(shiftNanoseconds, 1_000_000_000 / scale)
    let dayUnits = NMEATimeFields.secondsPerDay * scale
    var newDays = days
    if let time {
      let newUnits: Int64
      if let recordedDays = days {
        let (product, overflow) = recordedDays.multipliedReportingOverflow(by: dayUnits)
        let (total, overflow2) = (product + time.units).addingReportingOverflow(shiftUnits)
        guard !overflow, !overflow2 else { return false }
        (newDays, newUnits) = floorDivision(total, dayUnits)
      } else {
        newUnits =
          floorDivision(time.units + floorDivision(shiftUnits, dayUnits).remainder, dayUnits)
          .remainder
      }
      sentence.set(
        time.index, NMEATimeFields.timeOfDayField(units: newUnits, like: time.shape))
    } else if let recordedDays = days {
      let nanosecondsPerDay = NMEATimeFields.secondsPerDay * 1_000_000_000
      newDays =
        floorDivision(
          recordedDays * nanosecondsPerDay + nanosecondsPerDay / 2 + shiftNanoseconds,
          nanosecondsPerDay
        ).quotient
    }
    if let newDays { writeDate(date, days: newDays, into: &sentence) }
    return true
  }

  /// The recorded date: `.some(nil)` when there is none (no date fields, or empty ones), nil
  /// when it is malformed.
  private func readDate(
    _ date: NMEASentenceLayout.DateFields?, of sentence: NMEASentenceText
  ) -> Int64?? {
    switch date {
    case nil: return .some(nil)
    case .dayMonthYear(let index):
      if sentence[index].isEmpty { return .some(nil) }
      return NMEATimeFields.dayMonthYear(sentence[index]).map { .some($0) }
    case .separate(let day, let month, let year):
      let fields = [day, month, year].map { sentence[$0] }
      if fields.allSatisfy(\.isEmpty) { return .some(nil) }
      let values = fields.compactMap { DecimalField($0) }.filter { $0.decimals == 0 }
      guard values.count == 3,
        let days = CivilCalendar.days(
          year: values[2].units, month: values[1].units, day: values[0].units)
      else { return nil }
      return .some(days)
    }
  }

  private func writeDate(
    _ date: NMEASentenceLayout.DateFields?, days: Int64, into sentence: inout NMEASentenceText
  ) {
    switch date {
    case nil: return
    case .dayMonthYear(let index):
      sentence.set(index, NMEATimeFields.dayMonthYearField(days: days))
    case .separate(let day, let month, let year):
      // ZDA's fields are `dd,mm,yyyy`: two digits whatever the recorded day was (`12` moved
      // to the 1st is `01`).
      let civil = CivilCalendar.date(days: days)
      for (index, value, width) in [
        (day, civil.day, 2), (month, civil.month, 2), (year, civil.year, 4),
      ] {
        guard let shape = DecimalField(sentence[index]) else { continue }
        sentence.set(index, shape.written(units: value, minimumIntegerDigits: width))
      }
    }
  }

  /// Shifts a GPS week and seconds-of-week pair; false when one is malformed. A week written
  /// below 1024 is taken as written modulo 1024 (Garmin's PGRMF) and stays so.
  func shiftGPSWeek(of sentence: inout NMEASentenceText, week: Int, seconds: Int) -> Bool {
    if sentence[week].isEmpty || sentence[seconds].isEmpty { return true }
    guard let weekField = DecimalField(sentence[week]), weekField.decimals == 0,
      let secondsField = DecimalField(sentence[seconds]),
      secondsField.units < Self.secondsPerWeek * secondsField.scale
    else { return false }
    let weekUnits = Self.secondsPerWeek * secondsField.scale
    let shiftUnits = roundedDivision(shiftNanoseconds, 1_000_000_000 / secondsField.scale)
    let (product, overflow) = weekField.units.multipliedReportingOverflow(by: weekUnits)
    guard !overflow else { return false }
    let (newWeek, newSeconds) = floorDivision(product + secondsField.units + shiftUnits, weekUnits)
    guard newWeek >= 0 else { return false }
    let writtenWeek = weekField.units < 1024 ? newWeek % 1024 : newWeek
    sentence.set(week, weekField.written(units: writtenWeek))
    sentence.set(seconds, secondsField.written(units: newSeconds))
    return true
  }
}
