/// GNSS satellite fault detection: the expected errors of the position and the satellite most
/// likely to have failed (receiver autonomous integrity monitoring).
///
///            1         2   3   4   5  6   7   8   9 10
///     $--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x,h,h*hh
///
/// Fields: time of the fix, expected error of latitude, longitude and altitude (m), the ID of
/// the satellite most likely failed, the probability of missed detection, the estimated bias
/// of that satellite (m) and its standard deviation (m); fields 9 and 10 (the failed
/// satellite's system ID and signal ID) came with NMEA 4.10. See gpsd's `www/NMEA.adoc`,
/// "GBS - GPS Satellite Fault Detection".
public struct GBS: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  public var latitudeError: NMEADecimal?
  public var longitudeError: NMEADecimal?
  public var altitudeError: NMEADecimal?
  public var failedSatelliteID: NMEADecimal?
  public var missedDetectionProbability: NMEADecimal?
  /// The failed satellite's estimated range bias, meters.
  public var bias: NMEADecimal?
  public var biasDeviation: NMEADecimal?
  public var systemID: NMEADecimal?
  public var signalID: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GBS>(
    type: "GBS", minimumFields: 8, standardFields: 8,
    fields: [
      .time(\.time), .decimal(\.latitudeError, "latitude error"),
      .decimal(\.longitudeError, "longitude error"),
      .decimal(\.altitudeError, "altitude error"),
      .decimal(\.failedSatelliteID, "failed satellite ID"),
      .decimal(\.missedDetectionProbability, "missed detection probability"),
      .decimal(\.bias, "bias"), .decimal(\.biasDeviation, "bias deviation"),
      .decimal(\.systemID, "system ID"), .decimal(\.signalID, "signal ID"),
    ])
}
