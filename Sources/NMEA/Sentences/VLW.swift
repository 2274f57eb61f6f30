/// Dual ground/water distance: the distance travelled through the water and over ground, in
/// nautical miles.
///
///            1   2 3   4 5   6 7   8
///     $--VLW,x.x,N,x.x,N,x.x,N,x.x,N*hh
///
/// Fields: total cumulative water distance and `N`, water distance since reset and `N`; fields
/// 5 to 8 (total cumulative ground distance and `N`, ground distance since reset and `N`) came
/// with NMEA 4.00. See gpsd's `www/NMEA.adoc`, "VLW - Distance Traveled through Water".
public struct VLW: SentenceBody {
  public var talker = "GP"
  public var totalWaterDistance: NMEADecimal?
  public var totalWaterDistanceUnit: String?
  public var waterDistance: NMEADecimal?
  public var waterDistanceUnit: String?
  public var totalGroundDistance: NMEADecimal?
  public var totalGroundDistanceUnit: String?
  public var groundDistance: NMEADecimal?
  public var groundDistanceUnit: String?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<VLW>(
    type: "VLW", minimumFields: 4, standardFields: 4,
    fields: [
      .decimal(\.totalWaterDistance, "total water distance"),
      .text(\.totalWaterDistanceUnit, "total water distance unit"),
      .decimal(\.waterDistance, "water distance"),
      .text(\.waterDistanceUnit, "water distance unit"),
      .decimal(\.totalGroundDistance, "total ground distance"),
      .text(\.totalGroundDistanceUnit, "total ground distance unit"),
      .decimal(\.groundDistance, "ground distance"),
      .text(\.groundDistanceUnit, "ground distance unit"),
    ])
}
