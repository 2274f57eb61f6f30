/// GNSS DOP and active satellites: the fix type, the satellites used, and the DOPs.
///
///            1 2 3                        14 15  16  17  18
///     $--GSA,a,a,x,x,x,x,x,x,x,x,x,x,x,x,x,x.x,x.x,x.x,h*hh
///
/// Field 18 (system ID: 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou) came with NMEA 4.10.
/// See gpsd's `www/NMEA.adoc`, "GSA - GPS DOP and active satellites".
public struct GSA: SentenceBody {
  public var talker = "GP"
  /// `M` manual, `A` automatic 2D/3D.
  public var selectionMode: String?
  /// 1 no fix, 2 2D, 3 3D.
  public var fixType: NMEADecimal?
  /// Twelve slots for the IDs of the satellites used; empty slots are nil.
  public var satelliteIDs: [NMEADecimal?] = []
  public var pdop: NMEADecimal?
  public var hdop: NMEADecimal?
  public var vdop: NMEADecimal?
  public var systemID: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GSA>(
    type: "GSA", minimumFields: 17, standardFields: 17,
    fields: [
      .text(\.selectionMode, "selection mode"), .decimal(\.fixType, "fix type"),
      .decimals(\.satelliteIDs, count: 12, "satellite ID"), .decimal(\.pdop, "pdop"),
      .decimal(\.hdop, "hdop"), .decimal(\.vdop, "vdop"), .decimal(\.systemID, "system ID"),
    ])
}
