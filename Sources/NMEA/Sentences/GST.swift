/// GNSS pseudorange error statistics: the RMS of the range residuals and the standard deviations
/// of the position.
///
///            1         2   3   4   5   6   7   8
///     $--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh
///
/// Fields: time, RMS of the pseudorange residuals (m), σ of the error ellipse's semi-major and
/// semi-minor axes (m), the ellipse's orientation (degrees from true north), σ of latitude,
/// longitude and altitude (m). See gpsd's `www/NMEA.adoc`, "GST - GPS Pseudorange Noise
/// Statistics".
public struct GST: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  public var rangeRMS: NMEADecimal?
  public var semiMajorDeviation: NMEADecimal?
  public var semiMinorDeviation: NMEADecimal?
  public var orientation: NMEADecimal?
  public var latitudeDeviation: NMEADecimal?
  public var longitudeDeviation: NMEADecimal?
  public var altitudeDeviation: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GST>(
    type: "GST", minimumFields: 8, standardFields: 8,
    fields: [
      .time(\.time), .decimal(\.rangeRMS, "range RMS"),
      .decimal(\.semiMajorDeviation, "semi-major deviation"),
      .decimal(\.semiMinorDeviation, "semi-minor deviation"),
      .decimal(\.orientation, "orientation"),
      .decimal(\.latitudeDeviation, "latitude deviation"),
      .decimal(\.longitudeDeviation, "longitude deviation"),
      .decimal(\.altitudeDeviation, "altitude deviation"),
    ])
}
