/// Time and date: UTC time, day, month, four-digit year and local zone.
///
///            1         2  3  4    5  6
///     $--ZDA,hhmmss.ss,xx,xx,xxxx,xx,xx*hh
///
/// See gpsd's `www/NMEA.adoc`, "ZDA - Time & Date".
public struct ZDA: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  public var day: NMEADecimal?
  public var month: NMEADecimal?
  public var year: NMEADecimal?
  public var zoneHours: NMEADecimal?
  public var zoneMinutes: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<ZDA>(
    type: "ZDA", minimumFields: 4, standardFields: 6,
    fields: [
      .time(\.time), .decimal(\.day, "day"), .decimal(\.month, "month"),
      .decimal(\.year, "year"), .decimal(\.zoneHours, "zone hours"),
      .decimal(\.zoneMinutes, "zone minutes"),
    ])
}
