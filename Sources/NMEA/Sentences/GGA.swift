/// Global positioning system fix data: time, position, fix quality and altitude.
///
///            1         2       3 4        5 6 7  8   9  10 11  12 13  14
///     $--GGA,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,x,xx,x.x,x.x,M,x.x,M,x.x,xxxx*hh
///
/// See gpsd's `www/NMEA.adoc`, "GGA - Global Positioning System Fix Data".
public struct GGA: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  public var latitude: NMEACoordinate?
  public var longitude: NMEACoordinate?
  /// 0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning…
  public var quality: NMEADecimal?
  public var satellitesUsed: NMEADecimal?
  public var hdop: NMEADecimal?
  /// Antenna altitude above mean sea level.
  public var altitude: NMEADecimal?
  public var altitudeUnit: String?
  /// Height of the geoid above the WGS-84 ellipsoid.
  public var geoidSeparation: NMEADecimal?
  public var geoidSeparationUnit: String?
  public var dgpsAge: NMEADecimal?
  public var dgpsStation: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GGA>(
    type: "GGA", minimumFields: 12, standardFields: 14,
    fields: [
      .time(\.time), .coordinate(\.latitude, .latitude), .coordinate(\.longitude, .longitude),
      .decimal(\.quality, "fix quality"), .decimal(\.satellitesUsed, "satellites used"),
      .decimal(\.hdop, "hdop"), .decimal(\.altitude, "altitude"),
      .text(\.altitudeUnit, "altitude unit"), .decimal(\.geoidSeparation, "geoid separation"),
      .text(\.geoidSeparationUnit, "geoid separation unit"), .decimal(\.dgpsAge, "dgps age"),
      .text(\.dgpsStation, "dgps station"),
    ])
}
