/// GNSS satellites in view: one page of up to four satellites with elevation, azimuth and SNR.
///
///            1 2 3 4  5  6   7  ...            last
///     $--GSV,x,x,x,xx,xx,xxx,xx,(4 fields per satellite),h*hh
///
/// The optional last field (signal ID) came with NMEA 4.10: it is present when the fields after
/// the third leave one over after whole groups of four.
/// See gpsd's `www/NMEA.adoc`, "GSV - Satellites in view".
public struct GSV: SentenceBody {
  /// One satellite of a GSV page.
  public struct Satellite: Hashable, Sendable {
    public var id: NMEADecimal?
    /// Degrees above the horizon, 0–90.
    public var elevation: NMEADecimal?
    /// Degrees true, 0–359.
    public var azimuth: NMEADecimal?
    /// Carrier-to-noise density, dB-Hz, 0–99; nil when not tracked.
    public var snr: NMEADecimal?

    /// Creates a satellite entry.
    public init(
      id: NMEADecimal?, elevation: NMEADecimal?, azimuth: NMEADecimal?, snr: NMEADecimal?
    ) {
      self.id = id
      self.elevation = elevation
      self.azimuth = azimuth
      self.snr = snr
    }
  }

  public var talker = "GP"
  public var messageCount: NMEADecimal?
  public var messageNumber: NMEADecimal?
  public var satellitesInView: NMEADecimal?
  public var satellites: [Satellite] = []
  public var signalID: NMEADecimal?
  public var extraFields: [String] = []
  public var fieldCount: Int?

  public init() {}

  public static let spec = SentenceSpec<GSV>(
    type: "GSV", minimumFields: 3, standardFields: 3,
    fields: [
      .decimal(\.messageCount, "message count"), .decimal(\.messageNumber, "message number"),
      .decimal(\.satellitesInView, "satellites in view"), satelliteGroups,
      .decimal(\.signalID, "signal ID"),
    ])

  /// The repeating groups: as many whole groups of four as the fields hold, leaving at most one
  /// field (the signal ID).
  static let satelliteGroups = FieldSpec<GSV>(
    name: "satellite group", expected: "groups of ID, elevation, azimuth and SNR",
    decode: { body, fields in
      let groupCount = fields.count / 4
      guard fields.count % 4 <= 1 else {
        return .invalid(fields.suffix(fields.count % 4).joined(separator: ","))
      }
      var satellites: [Satellite] = []
      for group in 0..<groupCount {
        let start = fields.startIndex + group * 4
        let values: [NMEADecimal?]
        switch decodeDecimals(fields[start..<start + 4]) {
        case .success(let decoded): values = decoded
        case .failure(let invalid): return .invalid(invalid.text)
        }
        satellites.append(
          Satellite(id: values[0], elevation: values[1], azimuth: values[2], snr: values[3]))
      }
      body.satellites = satellites
      return .consumed(groupCount * 4)
    },
    encoding: .satellites(offset: FieldEncoding.offset(of: \GSV.satellites, field: "satellites")),
    emptyWidth: 0)
}
