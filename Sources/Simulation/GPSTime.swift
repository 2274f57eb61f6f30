/// A moment on the GPS time scale: weeks and time of week since 1980-01-06 00:00:00 UTC, which
/// runs ahead of UTC by the leap seconds inserted since then.
public struct GPSTime: Hashable, Sendable {
  /// The UTC moments at which a leap second had just been inserted (the first second after it),
  /// since the GPS epoch; GPS − UTC is the count of those at or before a moment.
  static let leapSecondInsertions: [Int64] = [
    (1981, 7), (1982, 7), (1983, 7), (1985, 7), (1988, 1), (1990, 1), (1991, 1), (1992, 7),
    (1993, 7), (1994, 7), (1996, 1), (1997, 7), (1999, 1), (2006, 1), (2009, 1), (2012, 7),
    (2015, 7), (2017, 1),
  ].map { year, month in
    UTCInstant(year: year, month: month, day: 1, hour: 0, minute: 0, second: 0).nanoseconds
  }

  /// The GPS epoch, 1980-01-06 00:00:00 UTC.
  public static let epoch = UTCInstant(
    year: 1980, month: 1, day: 6, hour: 0, minute: 0, second: 0)
  static let nanosecondsPerWeek: Int64 = 7 * UTCInstant.nanosecondsPerDay

  /// Whole weeks since the GPS epoch (not modulo 1024).
  public var week: Int
  /// Nanoseconds into the week.
  public var nanosecondsOfWeek: Int64
  /// GPS − UTC at this moment, seconds.
  public var leapSeconds: Int

  /// The GPS time of a UTC moment (at or after the GPS epoch; earlier moments count from it).
  public init(_ utc: UTCInstant) {
    leapSeconds = Self.leapSecondInsertions.reduce(0) { $0 + ($1 <= utc.nanoseconds ? 1 : 0) }
    let sinceEpoch = max(
      0,
      utc.nanoseconds(since: Self.epoch) &+ Int64(leapSeconds) * UTCInstant.nanosecondsPerSecond)
    week = Int(sinceEpoch / Self.nanosecondsPerWeek)
    nanosecondsOfWeek = sinceEpoch % Self.nanosecondsPerWeek
  }

  /// Seconds into the week.
  public var secondsOfWeek: Double { Double(nanosecondsOfWeek) / 1e9 }

  /// Seconds since the GPS epoch.
  public var secondsSinceEpoch: Double {
    Double(week) * 604_800 + secondsOfWeek
  }
}

extension GPSTime {
  /// GPS − UTC at `gpsSeconds` (seconds since the GPS epoch), seconds.
  public static func leapSeconds(atGPSSeconds gpsSeconds: Double) -> Int {
    // The latest insertion first: a time is nearly always after it.
    for index in leapSecondInsertions.indices.reversed() {
      // On the GPS scale an insertion comes the leap seconds before it, and itself, later.
      let inserted =
        Double(leapSecondInsertions[index] - epoch.nanoseconds) / 1e9 + Double(index + 1)
      if inserted <= gpsSeconds { return index + 1 }
    }
    return 0
  }

  /// Nanoseconds since the GPS epoch.
  public var nanosecondsSinceEpoch: Int64 {
    Int64(week) * Self.nanosecondsPerWeek + nanosecondsOfWeek
  }
}
