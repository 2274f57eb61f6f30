/// GNSS range residuals: the residual of each satellite used in the fix, in GSA's order.
///
///            1         2 3   ...  14  15 16
///     $--GRS,hhmmss.ss,d,x.x,(12 residuals),h,h*hh
///
/// Fields: time of the fix, mode (0: the residuals were used to compute the GGA position, 1:
/// they were recomputed after it), twelve residuals in meters (empty for an unused slot);
/// fields 15 and 16 (system ID and signal ID) came with NMEA 4.10. See gpsd's
/// `www/NMEA.adoc`, "GRS - GPS Range Residuals".
public struct GRS: SentenceBody {
  public var talker = "GP"
  public var time: NMEATime?
  public var mode: NMEADecimal?
  /// Twelve slots, meters; empty slots are nil.
  public var residuals: [NMEADecimal?] = []
  public var systemID: NMEADecimal?
  public var signalID: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GRS>(
    type: "GRS", minimumFields: 14, standardFields: 14,
    fields: [
      .time(\.time), .decimal(\.mode, "mode"), .decimals(\.residuals, count: 12, "residual"),
      .decimal(\.systemID, "system ID"), .decimal(\.signalID, "signal ID"),
    ])
}
