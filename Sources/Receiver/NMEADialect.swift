import Simulation

/// How one chip writes NMEA: its version, talkers, sentence order, field widths and decimals, and
/// how it numbers satellites.
///
/// `EpochEncoder` writes every sentence through a dialect; `NMEADialect.generic` is the NMEA 2.3
/// receiver mockgps always emulated, and each `ReceiverProfile` carries its chip's dialect.
public struct NMEADialect: Hashable, Sendable {
  /// The NMEA standard version the chip follows.
  public enum Version: Int, Hashable, Sendable, Comparable {
    /// 2.3: FAA mode indicator in RMC, GLL and VTG.
    case v23 = 230
    /// 4.0 (u-blox 8 default): as 2.3, one GSA per system without system ID.
    case v40 = 400
    /// 4.10: GSA system ID, GSV signal ID, RMC navigational status.
    case v410 = 410
    /// 4.11: as 4.10 with more signal IDs.
    case v411 = 411

    public static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The version as the standard writes it: `2.3`, `4.0`, `4.10`, `4.11`.
    public var text: String {
      switch self {
      case .v23: return "2.3"
      case .v40: return "4.0"
      case .v410: return "4.10"
      case .v411: return "4.11"
      }
    }
  }

  /// The version followed.
  public var version: Version
  /// The talker of sentences about the combined solution when more than one system is tracked
  /// (`GN`); nil writes every sentence under `GP`, as NMEA 2.3 receivers do.
  public var combinedTalker: String?
  /// The sentence types (without talker) in the order the chip sends them.
  public var sentenceOrder: [String]
  /// Digits after the point of the seconds of `hhmmss.ss`.
  public var timeFractionDigits = 2
  /// Digits of decimal minutes in latitude and longitude.
  public var minuteDigits = 5
  /// Digits after the point of HDOP, PDOP and VDOP.
  public var dopFractionDigits = 2
  /// Digits after the point of altitude and geoid separation.
  public var altitudeFractionDigits = 1
  /// The altitudes written, meters: `EpochEncoder.altitudeRangeMeters`, or less for chips that
  /// stop at the 18 km export (COCOM) limit.
  public var altitudeRangeMeters = EpochEncoder.altitudeRangeMeters
  /// Digits after the point of the speed in knots.
  public var knotsFractionDigits = 3
  /// Digits after the point of the speed in km/h.
  public var kilometersPerHourFractionDigits = 3
  /// Digits of GGA's satellite count (2 writes `09`, 1 writes `9`).
  public var satellitesUsedWidth = 2
  /// The slowest speed (m/s) at which the course is written; below it the course is empty, as
  /// u-blox leaves it while the heading is invalid. Nil writes the fix's course whenever there
  /// is a fix, moving or not (MediaTek, SiRF).
  public var courseMinimumSpeed: Double? = 0
  /// One GSA per tracked system (with its system ID from 4.10 on) instead of one for all.
  public var gsaPerSystem = false
  /// GGA once per tracked system under its own talker, each counting that system's satellites
  /// (SiRFstarV); false writes one GGA under the combined talker.
  public var ggaPerSystem = false
  /// GGA's DGPS station field when there is no correction (`0000` on SiRF); nil leaves it empty.
  public var ggaStationWithoutCorrection: String?
  /// ZDA's local zone fields; nil leaves them empty.
  public var zdaZone: Int? = 0
  /// RMC's and GNS's navigational status (4.10 on): u-blox always writes `V`.
  public var navigationalStatus = "V"
  /// The GSV signal IDs per system from 4.10 on: one GSV group per signal (u-blox F9 tracks
  /// two); an entry nil writes the signal ID field empty. Systems not listed write signal 1.
  public var signalIDs: [Constellation: [Int?]] = [:]
  /// GSV lists each system's satellites by number (u-blox) instead of used ones first.
  public var gsvByNumber = false
  /// The talker of the sentences about the solution whatever the systems tracked (u-blox
  /// CFG-NMEA `mainTalkerId`); nil takes it from the systems (`solutionTalker(_:)`).
  public var mainTalker: String?
  /// GSV under the solution's talker instead of each system's (u-blox CFG-NMEA `gsvTalkerId`).
  public var gsvUsesMainTalker = false
  /// The most satellites each GSV group lists (u-blox CFG-NMEA `numSV`); nil lists every one,
  /// up to `EpochEncoder.maximumSatellitesInView`.
  public var gsvSatelliteLimit: Int?
  /// The user range error (meters, 1σ) that GST multiplies the DOPs by: a typical
  /// single-frequency autonomous figure (broadcast clock and orbit ≈1 m, ionosphere after the
  /// Klobuchar model ≈2 m, troposphere, multipath and noise ≈1 m, root-sum-square ≈2.5 m).
  public var userRangeErrorMeters = 2.5

  /// Creates a dialect.
  public init(version: Version, combinedTalker: String?, sentenceOrder: [String]) {
    self.version = version
    self.combinedTalker = combinedTalker
    self.sentenceOrder = sentenceOrder
  }

  /// The receiver mockgps always emulated: NMEA 2.3, GP talker, the order of a u-blox 6/7
  /// (RMC, VTG, GGA, GSA, GSV…, GLL, ZDA), 5 decimals of minutes.
  public static let generic = NMEADialect(
    version: .v23, combinedTalker: nil,
    sentenceOrder: ["RMC", "VTG", "GGA", "GSA", "GSV", "GLL", "ZDA"])

  /// The talker of sentences about the whole solution for these tracked systems (each once).
  func solutionTalker(_ constellations: [Constellation]) -> String {
    if let mainTalker { return mainTalker }
    guard let combinedTalker else { return "GP" }
    if constellations.count == 1, let only = constellations.first { return only.talker }
    return combinedTalker
  }

  /// The talker of one system's GSV (and per-system GGA); `GP` for every system in NMEA 2.3.
  func systemTalker(_ constellation: Constellation) -> String {
    combinedTalker == nil ? "GP" : constellation.talker
  }

  /// The systems whose satellites this dialect can write: all from NMEA 4.10 on, GPS, SBAS and
  /// GLONASS before (2.3 and 4.0 have no two-digit numbers for Galileo and BeiDou).
  public var writableConstellations: Set<Constellation> {
    version >= .v410 ? Set(Constellation.allCases) : [.gps, .sbas, .glonass]
  }

  /// The number NMEA writes for a satellite, or nil when this dialect cannot write it in two
  /// digits: GPS 1–32, SBAS PRN 120–151 as 33–64 (PRN − 87, NMEA 0183's range for WAAS/SBAS,
  /// as u-blox's strict numbering and MediaTek write it; 152–158 have none) and GLONASS 65–88 everywhere; Galileo
  /// and BeiDou by their own number under their own talker from 4.10 on (NMEA 2.3 and 4.0 have
  /// no two-digit range for them).
  func nmeaNumber(_ satellite: SatelliteInView) -> Int? {
    let number: Int
    switch satellite.constellation {
    case .gps: number = satellite.id
    case .sbas:
      guard (33...64).contains(satellite.id - 87) else { return nil }
      number = satellite.id - 87
    case .glonass: number = satellite.id + 64
    case .galileo, .beidou:
      guard version >= .v410 else { return nil }
      number = satellite.id
    }
    return (1...99).contains(number) ? number : nil
  }

  /// The signals whose GSV this dialect writes for a system: nil (no signal field) before 4.10.
  func gsvSignals(_ constellation: Constellation) -> [Int?]? {
    guard version >= .v410 else { return nil }
    return signalIDs[constellation] ?? [1]
  }
}
