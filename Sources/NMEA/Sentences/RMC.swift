/// Recommended minimum specific GNSS data: time, date, position, speed and course.
///
///            1         2 3       4 5        6 7   8   9      10  11 12 13
///     $--RMC,hhmmss.ss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh
///
/// Field 12 (FAA mode) came with NMEA 2.3, field 13 (navigational status) with 4.10.
/// See gpsd's `www/NMEA.adoc`, "RMC - Recommended Minimum Navigation Information".
public struct RMC: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  /// `A` valid, `V` warning.
  public var status: String?
  public var latitude: NMEACoordinate?
  public var longitude: NMEACoordinate?
  public var speedKnots: NMEADecimal?
  /// Course over ground, degrees true.
  public var course: NMEADecimal?
  public var date: NMEADate?
  public var magneticVariation: NMEADecimal?
  public var magneticVariationDirection: String?
  /// FAA mode: `A` autonomous, `D` differential, `N` not valid…
  public var mode: String?
  /// NMEA 4.10 navigational status: `S` safe, `C` caution, `U` unsafe, `V` not valid.
  public var navigationalStatus: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<RMC>(
    type: "RMC", minimumFields: 11, standardFields: 11,
    fields: [
      .time(\.time), .text(\.status, "status"), .coordinate(\.latitude, .latitude),
      .coordinate(\.longitude, .longitude), .decimal(\.speedKnots, "speed"),
      .decimal(\.course, "course"), .date(\.date),
      .decimal(\.magneticVariation, "magnetic variation"),
      .text(\.magneticVariationDirection, "magnetic variation direction"),
      .text(\.mode, "mode"), .text(\.navigationalStatus, "navigational status"),
    ])
}
