/// A GNSS constellation with its NMEA talker and NMEA 4.10 system ID.
public enum Constellation: String, Hashable, Sendable, CaseIterable {
  case gps, glonass, galileo, beidou

  /// The talker of its GSV sentences.
  public var talker: String {
    switch self {
    case .gps: return "GP"
    case .glonass: return "GL"
    case .galileo: return "GA"
    case .beidou: return "GB"
    }
  }

  /// The NMEA 4.10 system ID (GSA field 18).
  public var systemID: Int {
    switch self {
    case .gps: return 1
    case .glonass: return 2
    case .galileo: return 3
    case .beidou: return 4
    }
  }
}

/// One satellite as the receiver sees it.
public struct SatelliteInView: Hashable, Sendable {
  public var constellation: Constellation
  /// The satellite's number within its system: GPS PRN 1–32, GLONASS slot 1–24, Galileo 1–36,
  /// BeiDou 1–63. Each NMEA dialect writes it its own way (GLONASS as 65–88 in GSA and GSV);
  /// the encoder maps it.
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
