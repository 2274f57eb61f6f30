/// GNSS fix data of a combined receiver: time, position, one mode character per system, the
/// satellites used, HDOP and altitude.
///
///            1         2       3 4        5 6    7  8   9   10  11  12   13
///     $--GNS,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,c--c,xx,x.x,x.x,x.x,x.x,xxxx,s*hh
///
/// Field 6 holds a mode character per system (GPS, GLONASS, Galileo, BeiDou…: `A`
/// autonomous, `D` differential, `N` none); field 13 (navigational status) came with NMEA 4.10.
/// See gpsd's `www/NMEA.adoc`, "GNS - Fix data".
public struct GNS: SentenceBody {
  public var talker = "GN"
  public var time: NMEATime?
  public var latitude: NMEACoordinate?
  public var longitude: NMEACoordinate?
  /// One mode character per system, such as `AANN`.
  public var mode: String?
  public var satellitesUsed: NMEADecimal?
  public var hdop: NMEADecimal?
  /// Altitude above mean sea level, meters.
  public var altitude: NMEADecimal?
  /// Geoid separation, meters.
  public var geoidSeparation: NMEADecimal?
  public var differentialAge: NMEADecimal?
  public var differentialStation: String?
  /// NMEA 4.10 navigational status: `S` safe, `C` caution, `U` unsafe, `V` not valid.
  public var navigationalStatus: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GNS>(
    type: "GNS", minimumFields: 12, standardFields: 12,
    fields: [
      .time(\.time), .coordinate(\.latitude, .latitude), .coordinate(\.longitude, .longitude),
      .text(\.mode, "mode"), .decimal(\.satellitesUsed, "satellites used"),
      .decimal(\.hdop, "hdop"), .decimal(\.altitude, "altitude"),
      .decimal(\.geoidSeparation, "geoid separation"),
      .decimal(\.differentialAge, "differential age"),
      .text(\.differentialStation, "differential station"),
      .text(\.navigationalStatus, "navigational status"),
    ])
}
