import Simulation

/// How far `--time now` moves a log's times: so that each timed epoch shows the time it goes
/// out at, `liveStart + offset`.
///
/// The log's absolute time comes from its date (`# Date:`, else the date of an RMC or ZDA of the
/// first timed epoch) and its time of day. A log without a date is taken to be of the day the
/// replay starts: its times of day are moved, and its dates (it has none) would be today's. A
/// UBX log paced by `iTOW` alone is taken to be of the GPS week the replay starts in.
enum LiveTimeShift {
  static let nanosecondsPerSecond: Int64 = 1_000_000_000
  static let nanosecondsPerDay: Int64 = 86_400 * nanosecondsPerSecond
  /// 1980-01-06, the start of GPS time, in seconds since 1970.
  static let gpsEpochSeconds: Int64 = 315_964_800
  /// GPS time minus UTC since 2017.
  static let leapSeconds: Int64 = 18

  /// The UTC time (nanoseconds since 1970) of a log time, on `day` or, without one, on the day
  /// (or GPS week) of `liveStart`.
  static func absoluteNanoseconds(of time: LogTime, day: LogHeader.Day?, liveStart: Int64)
    -> Int64
  {
    switch time.scale {
    case .timeOfDay:
      let dayStart =
        day.map { daysSince1970($0) * nanosecondsPerDay }
        ?? floorDivide(liveStart, nanosecondsPerDay) * nanosecondsPerDay
      return dayStart + time.nanoseconds
    case .timeOfWeek:
      let gpsNanoseconds =
        liveStart + (leapSeconds - gpsEpochSeconds) * nanosecondsPerSecond
      let week = time.scale.periodNanoseconds
      let weekStart = floorDivide(gpsNanoseconds, week) * week
      return weekStart + time.nanoseconds + (gpsEpochSeconds - leapSeconds) * nanosecondsPerSecond
    }
  }

  /// Days from 1970-01-01 to `day` (proleptic Gregorian calendar).
  static func daysSince1970(_ day: LogHeader.Day) -> Int64 {
    Int64(CivilDate.daysSinceEpoch(year: day.year, month: day.month, day: day.day))
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }
}
