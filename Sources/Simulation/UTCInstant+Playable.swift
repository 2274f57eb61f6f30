extension UTCInstant {
  /// The times a route or scenario may carry: from the start of GPS time (1980-01-06) to the
  /// end of 2199. Any two such times, and any of them and any instant mockgps can start at
  /// (years 1678 to 2261), are less than 292 years apart, so moving a track or scenario in time
  /// always fits in the nanoseconds of an `Int64`.
  public static let playableRange =
    UTCInstant(year: 1980, month: 1, day: 6)..<UTCInstant(year: 2200, month: 1, day: 1)

  /// `time 1900-01-01T00:00:00Z is outside 1980-01-06 (GPS time's start) to 2199`, or nil.
  public var playableRangeProblem: String? {
    Self.playableRange.contains(self)
      ? nil : "time \(self) is outside 1980-01-06 (the start of GPS time) to 2199"
  }
}
