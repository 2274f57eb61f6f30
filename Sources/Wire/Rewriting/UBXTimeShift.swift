/// Moves the times of UBX frames by a shift, keeping each field's resolution; the GPS week
/// goes on past the end of a week (and a GPS week rollover is just another week).
///
/// Covered: the iTOW of every NAV message of u-blox's M8/F9 descriptions (ATT, AOPSTATUS, CLOCK,
/// COV, DGPS, DOP, EOE, GEOFENCE, HPPOSECEF, HPPOSLLH, ODO, ORB, POSECEF, POSLLH, PVT,
/// RELPOSNED, SAT, SBAS, SIG, SLAS, SOL, STATUS, SVIN, SVINFO, TIMEBDS, TIMEGAL, TIMEGLO,
/// TIMEGPS, TIMELS, TIMEQZSS, TIMEUTC, VELECEF, VELNED); besides: NAV-SOL and NAV-TIMEGPS
/// (fTOW, week), NAV-PVT and NAV-TIMEUTC (UTC date, time and nano; validity flags untouched),
/// NAV-TIMEBDS/GAL/QZSS (their own time of week, fraction and week), NAV-TIMEGLO (time of
/// day, day and four-year period), RXM-RAWX (rcvTow, week), RXM-RAW and RXM-SVSI (ms of week,
/// week), RXM-MEASX (the GPS, GLONASS, BeiDou and QZSS times of week that are times: see
/// `shiftMeasurementTimes`), TIM-TP (towMS, towSubMS, week).
///
/// Not covered (left as recorded): NAV-TIMELS's leap-second event date, the navigation data
/// inside RXM-SFRB/SFRBX, LOG-* (retrieved history), MON-*, and other classes.
package struct UBXTimeShift {
  package let shiftNanoseconds: Int64

  /// Creates a shift of `shiftNanoseconds`.
  package init(shiftNanoseconds: Int64) {
    self.shiftNanoseconds = shiftNanoseconds
  }

  private static let weekMilliseconds: Int64 = 604_800_000
  private static let weekNanoseconds: Int64 = 604_800_000_000_000
  private static let billion: Int64 = 1_000_000_000

  /// Where the iTOW of each NAV message is.
  static let navigationTimeOfWeekOffsets: [UInt8: Int] = {
    var offsets: [UInt8: Int] = [:]
    let atStart: [UInt8] = [
      0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x11, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25,
      0x26, 0x27, 0x30, 0x31, 0x32, 0x34, 0x35, 0x36, 0x39, 0x42, 0x43, 0x60, 0x61,
    ]
    for id in atStart { offsets[id] = 0 }
    for id: UInt8 in [0x09, 0x13, 0x14, 0x3B, 0x3C] { offsets[id] = 4 }
    return offsets
  }()

  /// Shifts the frame's times; false when it has none this knows.
  package func shift(_ frame: inout UBXFrameBytes) -> Bool {
    switch (frame.messageClass, frame.id) {
    case (0x01, let id):
      guard let offset = Self.navigationTimeOfWeekOffsets[id], frame.has(offset, 4) else {
        return false
      }
      let weeks = shiftMilliseconds(&frame, at: offset)
      switch id {
      case 0x06, 0x20:
        guard frame.has(8, 2) else { break }
        shiftFraction(&frame, at: 4)
        frame.set(8, 2, frame.i2(8) + weeks)
      case 0x07: if frame.has(16, 4) { shiftUTC(&frame, date: 4, nano: 16) }
      case 0x21: if frame.has(12, 7) { shiftUTC(&frame, date: 12, nano: 8) }
      case 0x24, 0x25, 0x27: if frame.has(12, 2) { shiftSecondsOfWeek(&frame) }
      case 0x23: if frame.has(14, 1) { shiftGLONASS(&frame) }
      default: break
      }
      return true
    case (0x02, 0x15):
      guard frame.has(8, 2), frame.r8(0).isFinite else { return false }
      let (weeks, rest) = floorDivision(shiftNanoseconds, Self.weekNanoseconds)
      let total = frame.r8(0) + Double(rest) / 1e9
      let carry: Int64 = total >= 604_800 ? 1 : 0
      frame.setR8(0, total - Double(carry) * 604_800)
      frame.set(8, 2, frame.u2(8) + weeks + carry)
      return true
    case (0x02, 0x14):
      guard frame.has(35, 1) else { return false }
      shiftMeasurementTimes(&frame)
      return true
    case (0x02, 0x10), (0x02, 0x20):
      guard frame.has(4, 2) else { return false }
      frame.set(4, 2, frame.i2(4) + shiftMilliseconds(&frame, at: 0))
      return true
    case (0x0D, 0x01):
      guard frame.has(12, 2) else { return false }
      shiftTimePulse(&frame)
      return true
    default:
      return false
    }
  }

  /// The shift in whole milliseconds (rounded), added to a ms-of-week field; returns the weeks
  /// carried.
  private func shiftMilliseconds(_ frame: inout UBXFrameBytes, at offset: Int) -> Int64 {
    let milliseconds = roundedDivision(shiftNanoseconds, 1_000_000)
    let (weeks, timeOfWeek) = floorDivision(frame.u4(offset) + milliseconds, Self.weekMilliseconds)
    frame.set(offset, 4, timeOfWeek)
    return weeks
  }

  /// RXM-MEASX: the times of week (U4, ms) of GPS (offset 4), GLONASS (8), BeiDou (12) and QZSS
  /// (20), when its `towSet` flag says they are set and GPS's is one. Each other system's moves
  /// only when it stands, within a second, where that system's time stands from GPS's
  /// (`measurementOffsets`): an F9P without QZSS writes 1000 there, which is no time and stays
  /// as recorded. No week is carried.
  private func shiftMeasurementTimes(_ frame: inout UBXFrameBytes) {
    let gps = frame.u4(4)
    guard frame.u1(35) & 0x03 != 0, gps < Self.weekMilliseconds else { return }
    let milliseconds = roundedDivision(shiftNanoseconds, 1_000_000)
    for (offset, range) in Self.measurementOffsets {
      // How far the field stands from GPS's, the shortest way round the week.
      let half = Self.weekMilliseconds / 2
      let apart =
        floorDivision(frame.u4(offset) - gps + half, Self.weekMilliseconds).remainder - half
      guard (range.lowerBound - 1000...range.upperBound + 1000).contains(apart) else { continue }
      frame.set(
        offset, 4, floorDivision(frame.u4(offset) + milliseconds, Self.weekMilliseconds).remainder)
    }
  }

  /// Where each system's time of week in RXM-MEASX stands from GPS's, ms: GPS itself; GLONASS
  /// UTC + 3 h, so 3 h less the leap seconds (0 to 64 s); BeiDou 14 s behind; QZSS on GPS time.
  static let measurementOffsets: [(offset: Int, range: ClosedRange<Int64>)] = [
    (4, 0...0), (8, 10_736_000...10_800_000), (12, -14_000...(-14_000)), (20, 0...0),
  ]

  /// What the whole milliseconds left out, added to an fTOW (ns) field.
  private func shiftFraction(_ frame: inout UBXFrameBytes, at offset: Int) {
    let rest = shiftNanoseconds - roundedDivision(shiftNanoseconds, 1_000_000) * 1_000_000
    frame.set(offset, 4, frame.i4(offset) + rest)
  }

  /// Shifts a UTC date and time (year U2, month, day, hour, min, sec) and its nano (I4) field;
  /// a date that is no date is left as recorded.
  private func shiftUTC(_ frame: inout UBXFrameBytes, date offset: Int, nano: Int) {
    guard
      let days = CivilCalendar.days(
        year: frame.u2(offset), month: frame.u1(offset + 2), day: frame.u1(offset + 3)),
      frame.u1(offset + 4) < 24, frame.u1(offset + 5) < 60, frame.u1(offset + 6) <= 60
    else { return }
    let seconds =
      days * 86_400 + frame.u1(offset + 4) * 3600 + frame.u1(offset + 5) * 60
      + frame.u1(offset + 6)
    let (newSeconds, newNano) = shiftedSeconds(seconds, nano: frame.i4(nano))
    let (newDays, timeOfDay) = floorDivision(newSeconds, 86_400)
    let civil = CivilCalendar.date(days: newDays)
    frame.set(offset, 2, civil.year)
    for (index, value) in [
      civil.month, civil.day, timeOfDay / 3600, timeOfDay / 60 % 60, timeOfDay % 60,
    ]
    .enumerated() {
      frame.set(offset + 2 + index, 1, value)
    }
    frame.set(nano, 4, newNano)
  }

  /// NAV-TIMEBDS/GAL/QZSS: seconds of week (U4), fraction (I4, ns), week (I2).
  private func shiftSecondsOfWeek(_ frame: inout UBXFrameBytes) {
    let (seconds, fraction) = shiftedSeconds(
      frame.i2(12) * 604_800 + frame.u4(4), nano: frame.i4(8))
    let (week, timeOfWeek) = floorDivision(seconds, 604_800)
    frame.set(4, 4, timeOfWeek)
    frame.set(8, 4, fraction)
    frame.set(12, 2, week)
  }

  /// Whole seconds and a signed fraction (ns) moved by the shift: the seconds by the shift
  /// rounded to seconds, the fraction by the rest, keeping the recorded fraction's sign
  /// convention; a fraction that reaches a whole second carries.
  private func shiftedSeconds(_ seconds: Int64, nano: Int64) -> (seconds: Int64, nano: Int64) {
    let wholeShift = roundedDivision(shiftNanoseconds, Self.billion)
    var newNano = nano + shiftNanoseconds - wholeShift * Self.billion
    var newSeconds = seconds + wholeShift
    if newNano >= Self.billion || newNano <= -Self.billion {
      let carry = newNano / Self.billion
      newSeconds += carry
      newNano -= carry * Self.billion
    }
    return (newSeconds, newNano)
  }

  /// NAV-TIMEGLO: time of day (U4, s), fraction (I4, ns), day in the four-year period (U2, from
  /// 1) and four-year period since 1996 (U1, from 1).
  private func shiftGLONASS(_ frame: inout UBXFrameBytes) {
    guard frame.u2(12) >= 1, frame.u1(14) >= 1 else { return }
    let periodDays: Int64 = 1461
    let (seconds, nano) = shiftedSeconds(
      ((frame.u1(14) - 1) * periodDays + frame.u2(12) - 1) * 86_400 + frame.u4(4),
      nano: frame.i4(8))
    let (days, timeOfDay) = floorDivision(seconds, 86_400)
    let (period, dayInPeriod) = floorDivision(days, periodDays)
    guard period >= 0 else { return }
    frame.set(4, 4, timeOfDay)
    frame.set(8, 4, nano)
    frame.set(12, 2, dayInPeriod + 1)
    frame.set(14, 1, period + 1)
  }

  /// TIM-TP: towMS (U4), towSubMS (U4, 2⁻³² ms), week (U2).
  private func shiftTimePulse(_ frame: inout UBXFrameBytes) {
    let (milliseconds, rest) = floorDivision(shiftNanoseconds, 1_000_000)
    let subMilliseconds = frame.u4(4) + rest * (1 << 32) / 1_000_000
    let (carry, newSub) = floorDivision(subMilliseconds, 1 << 32)
    let (weeks, timeOfWeek) = floorDivision(
      frame.u4(0) + milliseconds + carry, Self.weekMilliseconds)
    frame.set(0, 4, timeOfWeek)
    frame.set(4, 4, newSub)
    frame.set(12, 2, frame.u2(12) + weeks)
  }
}
