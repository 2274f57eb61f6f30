/// u-blox's PUBX,04 (PUBX-TIME): the time and date, the UTC week and time of week, the leap
/// seconds and the receiver clock.
///
///     $PUBX,04,hhmmss.ss,ddmmyy,x.xx,xxxx,xx[D],x,x.xxx,x*hh
///
/// Fields: message ID `04`, UTC time and date, UTC time of week (s) and week (from the GPS
/// epoch, not modulo 1024), the leap seconds (GPS − UTC, with a `D` when it is the firmware's
/// default rather than the almanac's), the receiver clock's bias (ns) and drift (ns/s), and
/// the time pulse's granularity (ns). See the u-blox 8 / M8 receiver description,
/// "PUBX-TIME (PUBX,04)", whose example ends in an empty field (`,43,*3C`) where the chips'
/// captures end in tpGran (`$PUBX,04,035231.00,140919,532351.00,2070,18,541289,165.421,08*1A`):
/// both are read, the captures' form is written.
public struct PUBXTime: SentenceBody {
  public var talker = "P"
  public var messageID: String? = "04"
  public var time: NMEATime?
  public var date: NMEADate?
  /// UTC seconds into the week.
  public var utcTimeOfWeek: NMEADecimal?
  /// UTC weeks since the GPS epoch.
  public var utcWeek: NMEADecimal?
  /// GPS − UTC in seconds, with a `D` suffix for the firmware's default.
  public var leapSeconds: String?
  /// Nanoseconds.
  public var clockBias: NMEADecimal?
  /// Nanoseconds per second.
  public var clockDrift: NMEADecimal?
  /// Nanoseconds.
  public var timePulseGranularity: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<PUBXTime>(
    type: "UBX", minimumFields: 9, standardFields: 9,
    fields: [
      .text(\.messageID, "message ID"), .time(\.time), .date(\.date),
      .decimal(\.utcTimeOfWeek, "utcTow"), .decimal(\.utcWeek, "utcWk"),
      .text(\.leapSeconds, "leapSec"), .decimal(\.clockBias, "clkBias"),
      .decimal(\.clockDrift, "clkDrift"), .decimal(\.timePulseGranularity, "tpGran"),
    ], proprietaryID: "04")
}
