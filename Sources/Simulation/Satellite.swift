/// A GNSS constellation with its NMEA talker and NMEA 4.10 system ID, or SBAS: the
/// geostationary satellites of the augmentation systems (WAAS, EGNOS, MSAS, GAGAN…), which
/// broadcast a GPS-like L1 C/A signal with PRNs 120–158 and are listed with GPS in NMEA.
public enum Constellation: String, Hashable, Sendable, CaseIterable {
  case gps, glonass, galileo, beidou, sbas

  /// The talker of its GSV sentences.
  public var talker: String {
    switch self {
    case .gps, .sbas: return "GP"
    case .glonass: return "GL"
    case .galileo: return "GA"
    case .beidou: return "GB"
    }
  }

  /// The NMEA 4.10 system ID (GSA field 18).
  public var systemID: Int {
    switch self {
    case .gps, .sbas: return 1
    case .glonass: return 2
    case .galileo: return 3
    case .beidou: return 4
    }
  }

  /// The system whose NMEA group (GSV, GSA, the per-system GGA) lists this one's satellites:
  /// GPS's for SBAS (u-blox and MediaTek write SBAS in GPGSV, NMEA system ID 1), its own for
  /// every other system.
  public var listedWith: Constellation {
    switch self {
    case .gps, .sbas: return .gps
    case .glonass: return .glonass
    case .galileo: return .galileo
    case .beidou: return .beidou
    }
  }

  /// True for an augmentation system (SBAS): its satellites are tracked but not used in the
  /// fix, and it does not count against a chip's limit of major systems tracked at once.
  public var isAugmentation: Bool { listedWith != self }

  /// Hashes the case rather than its name (the default of a type with a `String` raw value):
  /// sets and dictionaries of systems are looked up in every epoch.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ordinal)
  }

  /// The case's position in `allCases`: a place for each system in a table of
  /// `allCases.count`.
  public var ordinal: Int {
    switch self {
    case .gps: return 0
    case .glonass: return 1
    case .galileo: return 2
    case .beidou: return 3
    case .sbas: return 4
    }
  }
}

/// One satellite as the receiver sees it.
public struct SatelliteInView: Hashable, Sendable {
  public var constellation: Constellation
  /// The satellite's number within its system: GPS PRN 1–32, GLONASS slot 1–24, Galileo 1–36,
  /// BeiDou 1–63, SBAS by PRN 120–158. Each NMEA dialect writes it its own way (GLONASS as
  /// 65–88 in GSA and GSV, SBAS as PRN − 87, 33–64); the encoder maps it.
  public var id: Int
  /// Degrees above the horizon.
  public var elevation: Double
  /// Degrees true.
  public var azimuth: Double
  /// Carrier-to-noise density in dB-Hz; nil when the satellite is not tracked.
  public var snr: Int?
  /// True when the satellite is used in the fix.
  public var isUsed: Bool

  /// Creates a satellite.
  public init(
    constellation: Constellation, id: Int, elevation: Double, azimuth: Double, snr: Int?,
    isUsed: Bool
  ) {
    self.constellation = constellation
    self.id = id
    self.elevation = elevation
    self.azimuth = azimuth
    self.snr = snr
    self.isUsed = isUsed
  }
}
