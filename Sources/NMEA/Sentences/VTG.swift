/// Course over ground and ground speed.
///
///            1   2 3   4 5   6 7   8 9
///     $--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh
///
/// Field 9 (FAA mode) came with NMEA 2.3. See gpsd's `www/NMEA.adoc`, "VTG - Track made good".
public struct VTG: SentenceBody {
  public var talker = "GP"
  public var courseTrue: NMEADecimal?
  public var courseTrueUnit: String?
  public var courseMagnetic: NMEADecimal?
  public var courseMagneticUnit: String?
  public var speedKnots: NMEADecimal?
  public var speedKnotsUnit: String?
  public var speedKilometersPerHour: NMEADecimal?
  public var speedKilometersPerHourUnit: String?
  public var mode: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<VTG>(
    type: "VTG", minimumFields: 8, standardFields: 8,
    fields: [
      .decimal(\.courseTrue, "true course"), .text(\.courseTrueUnit, "true course unit"),
      .decimal(\.courseMagnetic, "magnetic course"),
      .text(\.courseMagneticUnit, "magnetic course unit"), .decimal(\.speedKnots, "speed"),
      .text(\.speedKnotsUnit, "speed unit"), .decimal(\.speedKilometersPerHour, "speed"),
      .text(\.speedKilometersPerHourUnit, "speed unit"), .text(\.mode, "mode"),
    ])
}
