import Simulation
import Wire

/// How far `--time now` moves a log's times: so that each timed epoch shows the time it goes
/// out at, `liveStart + offset`.
///
/// The log's absolute time comes from its date (`# Date:`, else the date of an RMC or ZDA of the
/// first timed epoch) and its time of day. A log without a date is taken to be of the day the
/// replay starts: its times of day are moved, and its dates (it has none) would be today's. A
/// UBX log paced by `iTOW` is of the GPS week its frames say (`LogTime.ubxWeek`), else taken to
/// be of the GPS week the replay starts in.
enum LiveTimeShift {
  /// UTC's second, nanoseconds.
  static let nanosecondsPerSecond = UTCInstant.nanosecondsPerSecond
  /// UTC's day, nanoseconds.
  static let nanosecondsPerDay = UTCInstant.nanosecondsPerDay
  /// 1980-01-06, the start of GPS time, in nanoseconds since 1970.
  static let gpsEpochNanoseconds = GPSTime.epoch.nanoseconds

  /// The UTC time (nanoseconds since 1970) of a log time, on `day` (a time of day) or in GPS
  /// week `week` (a time of week), or without them on the day (or GPS week) of `liveStart`.
  static func absoluteNanoseconds(
    of time: LogTime, day: LogHeader.Day?, week: Int? = nil, liveStart: Int64
  ) -> Int64 {
    switch time.scale {
    case .timeOfDay:
      let dayStart =
        day.map { daysSince1970($0) * nanosecondsPerDay }
        ?? floorDivision(liveStart, nanosecondsPerDay).quotient * nanosecondsPerDay
      return dayStart + time.nanoseconds
    case .timeOfWeek:
      // GPS time minus UTC when the replay starts (18 s since 2017).
      let leap =
        Int64(GPSTime(UTCInstant(nanosecondsSinceEpoch: liveStart)).leapSeconds)
        * nanosecondsPerSecond
      let gpsNanoseconds = liveStart + leap - gpsEpochNanoseconds
      let period = time.scale.periodNanoseconds
      guard let week else {
        let weekStart = floorDivision(gpsNanoseconds, period).quotient * period
        return weekStart + time.nanoseconds + gpsEpochNanoseconds - leap
      }
      // The log's own week: GPS time less the leap seconds of its time, not of today's.
      let logGPS = Int64(week) * period + time.nanoseconds
      let logLeap = Int64(GPSTime.leapSeconds(atGPSSeconds: Double(logGPS) / 1e9))
      return logGPS + gpsEpochNanoseconds - logLeap * nanosecondsPerSecond
    }
  }

  /// Days from 1970-01-01 to `day` (proleptic Gregorian calendar).
  static func daysSince1970(_ day: LogHeader.Day) -> Int64 {
    Int64(CivilDate.daysSinceEpoch(year: day.year, month: day.month, day: day.day))
  }
}
