import Simulation

/// GLONASS time: Moscow time, UTC + 3 h (GLONASS ICD 5.1, 3.3.3), here counted in seconds from
/// 1980-01-06 00:00 Moscow time, beside GPS seconds (since the GPS epoch) which run GPS − UTC
/// ahead of UTC.
public enum GLONASSTime {
  /// Moscow time is UTC + 3 h.
  static let moscowOffsetSeconds = 10_800.0

  /// The Moscow seconds of `gpsSeconds`, when GPS − UTC is `leapSeconds`.
  public static func moscowSeconds(atGPSSeconds gpsSeconds: Double, leapSeconds: Int) -> Double {
    gpsSeconds - Double(leapSeconds) + moscowOffsetSeconds
  }

  /// The GPS seconds of `moscowSeconds`, when GPS − UTC is `leapSeconds`.
  public static func gpsSeconds(atMoscowSeconds moscowSeconds: Double, leapSeconds: Int) -> Double {
    moscowSeconds - moscowOffsetSeconds + Double(leapSeconds)
  }

  /// The GPS seconds of `moscowSeconds`, GPS − UTC being what it was then.
  public static func gpsSeconds(atMoscowSeconds moscowSeconds: Double) -> Double {
    let utc = moscowSeconds - moscowOffsetSeconds
    let estimate = utc + Double(GPSTime.leapSeconds(atGPSSeconds: utc))
    return utc + Double(GPSTime.leapSeconds(atGPSSeconds: estimate))
  }
}
