import NMEA
import Simulation

/// The profiles `--profile` accepts, each matched to a real capture in gpsd's regression logs by
/// the fingerprint tests (`ProfileFingerprintTests`). Channel limits are the chips' datasheet
/// figures for satellites tracked at once.
extension ReceiverProfile {
  /// Every profile, in the order `mockgps profiles` lists them.
  public static let all: [ReceiverProfile] = [.generic, .ubloxM8, .ubloxF9P, .mtk, .sirf]

  /// Today's output: NMEA 2.3, GP talker, the sentences of `EpochEncoder.sentenceOrder`.
  public static let generic = ReceiverProfile(
    name: "generic", summary: "NMEA 2.3 receiver: GP talker, RMC VTG GGA GSA GSV GLL ZDA",
    commandSet: .none, defaultConstellations: [.gps], channelLimit: 12, defaultBaud: 9600,
    defaultOutput: OutputSelection(nmeaEveryEpoch: EpochEncoder.sentenceOrder))

  /// A u-blox NEO-M8N configured for NMEA 4.10 (capture: gpsd's `neo-m8n.log`), its banner and
  /// MON-VER those of SPG 3.01 (`UbloxFirmware.spg301`).
  public static let ubloxM8 = ReceiverProfile(
    name: "ublox-m8",
    summary: "u-blox M8 (NEO-M8N): NMEA 4.10, GN talker, GPS+GLONASS, TXT banner, UBX",
    commandSet: .ubloxM8, defaultConstellations: [.gps, .glonass, .sbas], channelLimit: 72,
    defaultBaud: 9600, defaultOutput: OutputSelection(nmeaEveryEpoch: ublox8Defaults),
    dialect: ubloxDialect(version: .v410, signals: [.galileo: [7]]),
    powerUpSentences: textBanner(UbloxFirmware.spg301.bannerLines))

  /// A u-blox ZED-F9P in NMEA 4.11 with two signals per system (capture: gpsd's
  /// `ublox-zed-f9p-nmea.log`), its banner and MON-VER those of HPG 1.32 (`UbloxFirmware.hpg132`).
  public static let ubloxF9P = ReceiverProfile(
    name: "ublox-f9p",
    summary: "u-blox ZED-F9P: NMEA 4.11, GN talker, four systems, signal IDs, UBX and VALSET",
    commandSet: .ubloxF9, defaultConstellations: [.gps, .glonass, .galileo, .beidou, .sbas],
    channelLimit: 184, defaultBaud: 38400,
    defaultOutput: OutputSelection(nmeaEveryEpoch: ublox8Defaults),
    dialect: ubloxDialect(
      version: .v411,
      signals: [.gps: [1, 6], .glonass: [1, 3], .galileo: [7, 2], .beidou: [1, nil]]),
    powerUpSentences: textBanner(UbloxFirmware.hpg132.bannerLines))

  /// A MediaTek MT3301 (GlobalTop) module: GPS only, 3 decimals of seconds, 6 of minutes, GSA and
  /// GSV every fifth epoch (capture: gpsd's `mtk-3301.log`).
  public static let mtk = ReceiverProfile(
    name: "mtk", summary: "MediaTek MT3301: NMEA 2.3, GP talker, GPS only, PMTK commands",
    commandSet: .mtk, defaultConstellations: [.gps], channelLimit: 22, defaultBaud: 9600,
    defaultOutput: OutputSelection(nmea: ["GGA": 1, "GSA": 5, "GSV": 5, "RMC": 1, "VTG": 1]),
    dialect: mtkDialect, powerUpSentences: ["$PMTK011,MTKGPS*08", "$PMTK010,001*2E"])

  /// A SiRFstarV in NMEA mode: a GGA per system, GN GSA and RMC, GSV every fifth epoch at 4800
  /// baud (capture: gpsd's `sirfstarv-nmea.log`).
  public static let sirf = ReceiverProfile(
    name: "sirf",
    summary: "SiRFstarV in NMEA mode: GP and GL GGA, GN GSA and RMC, GPS+GLONASS",
    commandSet: .sirf, defaultConstellations: [.gps, .glonass], channelLimit: 52,
    defaultBaud: 4800,
    defaultOutput: OutputSelection(nmea: ["GGA": 1, "GSA": 1, "GSV": 1, "RMC": 1]),
    dialect: sirfDialect,
    slowLineOutput: SlowLineOutput(
      maximumBaud: 4800, output: OutputSelection(nmea: ["GGA": 1, "GSA": 1, "GSV": 5, "RMC": 1])))

  /// What a u-blox 8 or 9 sends from the factory.
  static let ublox8Defaults = ["RMC", "VTG", "GGA", "GSA", "GSV", "GLL"]

  /// u-blox's NMEA: GN for the solution, a GSA per system, 2 decimals of seconds and DOPs, 5 of
  /// minutes, 3 of speed, GSV by satellite number; the course stays empty below 0.5 m/s as the chip leaves heading of
  /// motion invalid when nearly still (the threshold is an assumption: every capture is static).
  ///
  /// The order: the factory six, then the others by their CFG-MSG ID (GRS 06, GST 07, ZDA 08,
  /// GBS 09, DTM 0A, GNS 0D, VLW 0F), as gpsd's F9P and M9N captures send GST, ZDA and GBS, then
  /// PUBX,00, 03 and 04 (class F1); the place of the others is an assumption (no capture at hand has them).
  static func ubloxDialect(version: NMEADialect.Version, signals: [Constellation: [Int?]])
    -> NMEADialect
  {
    var dialect = NMEADialect(
      version: version, combinedTalker: "GN",
      sentenceOrder: [
        "RMC", "VTG", "GGA", "GSA", "GSV", "GLL", "GRS", "GST", "ZDA", "GBS", "DTM", "GNS", "VLW",
        "PUBX,00", "PUBX,03", "PUBX,04",
      ])
    dialect.gsaPerSystem = true
    dialect.courseMinimumSpeed = 0.5
    dialect.gsvByNumber = true
    dialect.signalIDs = signals
    return dialect
  }

  /// Altitudes up to the 18 km export (COCOM) limit, where these chips stop reporting.
  static let cocomAltitudeRange = -1000.0...18_000.0

  static let mtkDialect: NMEADialect = {
    var dialect = NMEADialect(
      version: .v23, combinedTalker: nil,
      sentenceOrder: ["GGA", "GSA", "GSV", "RMC", "VTG", "GLL", "ZDA"])
    dialect.timeFractionDigits = 3
    dialect.minuteDigits = 6
    dialect.altitudeFractionDigits = 3
    dialect.altitudeRangeMeters = cocomAltitudeRange
    dialect.satellitesUsedWidth = 1
    dialect.courseMinimumSpeed = nil
    return dialect
  }()

  static let sirfDialect: NMEADialect = {
    var dialect = NMEADialect(
      version: .v40, combinedTalker: "GN",
      sentenceOrder: ["GGA", "GSA", "GSV", "RMC", "VTG", "GLL", "ZDA"])
    dialect.timeFractionDigits = 3
    dialect.minuteDigits = 4
    dialect.dopFractionDigits = 1
    dialect.altitudeRangeMeters = cocomAltitudeRange
    dialect.knotsFractionDigits = 2
    dialect.kilometersPerHourFractionDigits = 2
    dialect.courseMinimumSpeed = nil
    dialect.gsaPerSystem = true
    dialect.ggaPerSystem = true
    dialect.ggaStationWithoutCorrection = "0000"
    return dialect
  }()

  /// u-blox's power-up banner: one `GNTXT` notice per line.
  static func textBanner(_ lines: [String]) -> [String] {
    lines.map { text in
      var txt = TXT()
      txt.talker = "GN"
      txt.sentenceCount = NMEADecimal(integer: 1, width: 2)
      txt.sentenceNumber = NMEADecimal(integer: 1, width: 2)
      txt.textIdentifier = NMEADecimal(integer: 2, width: 2)
      txt.text = text
      return txt.raw.description
    }
  }
}
