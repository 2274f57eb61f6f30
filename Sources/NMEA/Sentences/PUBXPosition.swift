/// u-blox's PUBX,00 (PUBX-POSITION): the fix with its accuracy, velocity and DOPs in one line.
///
///     $PUBX,00,hhmmss.ss,ddmm.mmmm,a,dddmm.mmmm,a,x.xxx,cc,x.x,x.x,x.xxx,x.xx,x.xxx,x,
///         x.xx,x.xx,x.xx,x,0,0*hh
///
/// Fields: message ID `00`, time, position, altitude above the ellipsoid (m), navigation status
/// (`NF` no fix, `DR`, `G2`/`G3` standalone 2D/3D, `D2`/`D3` differential, `RK` RTK, `TT`
/// time only), horizontal and vertical accuracy (m), speed over ground (km/h), course, vertical
/// velocity (m/s, positive down), age of the differential corrections (s), HDOP, VDOP, TDOP,
/// satellites used, a reserved 0 and the dead-reckoning flag. See the u-blox 8 / M8 receiver
/// description, "PUBX-POSITION (PUBX,00)", and gpsd's `driver_nmea0183.c`, which reads it.
public struct PUBXPosition: SentenceBody {
  public var talker = "P"
  public var messageID: String? = "00"
  public var time: NMEATime?
  public var latitude: NMEACoordinate?
  public var longitude: NMEACoordinate?
  /// Altitude above the ellipsoid, meters.
  public var ellipsoidalAltitude: NMEADecimal?
  public var navigationStatus: String?
  public var horizontalAccuracy: NMEADecimal?
  public var verticalAccuracy: NMEADecimal?
  public var speedKilometersPerHour: NMEADecimal?
  public var course: NMEADecimal?
  /// Meters per second, positive downwards.
  public var verticalVelocity: NMEADecimal?
  public var differentialAge: NMEADecimal?
  public var hdop: NMEADecimal?
  public var vdop: NMEADecimal?
  public var tdop: NMEADecimal?
  public var satellitesUsed: NMEADecimal?
  public var reserved: NMEADecimal?
  public var deadReckoning: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<PUBXPosition>(
    type: "UBX", minimumFields: 20, standardFields: 20,
    fields: [
      .text(\.messageID, "message ID"), .time(\.time), .coordinate(\.latitude, .latitude),
      .coordinate(\.longitude, .longitude), .decimal(\.ellipsoidalAltitude, "altRef"),
      .text(\.navigationStatus, "navStat"), .decimal(\.horizontalAccuracy, "hAcc"),
      .decimal(\.verticalAccuracy, "vAcc"), .decimal(\.speedKilometersPerHour, "SOG"),
      .decimal(\.course, "COG"), .decimal(\.verticalVelocity, "vVel"),
      .decimal(\.differentialAge, "diffAge"), .decimal(\.hdop, "HDOP"), .decimal(\.vdop, "VDOP"),
      .decimal(\.tdop, "TDOP"), .decimal(\.satellitesUsed, "numSvs"),
      .decimal(\.reserved, "reserved"), .decimal(\.deadReckoning, "DR"),
    ], proprietaryID: "00")
}
