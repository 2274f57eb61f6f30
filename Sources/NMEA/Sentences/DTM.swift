/// Datum reference: the local datum positions are given in and its offsets from the reference
/// datum.
///
///            1   2 3   4 5   6 7   8
///     $--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc*hh
///
/// Fields: local datum code (`W84` WGS-84, `999` user defined), subdivision code, latitude
/// offset (minutes) and N/S, longitude offset (minutes) and E/W, altitude offset (m), reference
/// datum code. See gpsd's `www/NMEA.adoc`, "DTM - Datum Reference".
public struct DTM: SentenceBody {
  public var talker = "GP"
  public var datum: String?
  public var subdivision: String?
  public var latitudeOffsetMinutes: NMEADecimal?
  public var latitudeOffsetHemisphere: String?
  public var longitudeOffsetMinutes: NMEADecimal?
  public var longitudeOffsetHemisphere: String?
  public var altitudeOffset: NMEADecimal?
  public var referenceDatum: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<DTM>(
    type: "DTM", minimumFields: 8, standardFields: 8,
    fields: [
      .text(\.datum, "datum"), .text(\.subdivision, "subdivision"),
      .decimal(\.latitudeOffsetMinutes, "latitude offset"),
      .text(\.latitudeOffsetHemisphere, "latitude offset hemisphere"),
      .decimal(\.longitudeOffsetMinutes, "longitude offset"),
      .text(\.longitudeOffsetHemisphere, "longitude offset hemisphere"),
      .decimal(\.altitudeOffset, "altitude offset"), .text(\.referenceDatum, "reference datum"),
    ])
}
