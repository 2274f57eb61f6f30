/// Geographic position, latitude and longitude, with time and status.
///
///            1       2 3        4 5         6 7
///     $--GLL,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,m*hh
///
/// Field 7 (FAA mode) came with NMEA 2.3. See gpsd's `www/NMEA.adoc`, "GLL - Geographic Position".
public struct GLL: SentenceBody {
  public var talker = "GP"
  public var latitude: NMEACoordinate?
  public var longitude: NMEACoordinate?
  public var time: NMEATime?
  /// `A` valid, `V` not valid.
  public var status: String?
  public var mode: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GLL>(
    type: "GLL", minimumFields: 6, standardFields: 6,
    fields: [
      .coordinate(\.latitude, .latitude), .coordinate(\.longitude, .longitude), .time(\.time),
      .text(\.status, "status"), .text(\.mode, "mode"),
    ])
}
