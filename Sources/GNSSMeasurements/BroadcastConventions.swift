import Simulation

/// What a system's broadcast orbit and clock are computed with and counted in: its Earth's
/// gravitational constant and rotation rate (those of its user algorithm, which differ from
/// GPS's by parts in 10⁷), its time scale's offset from GPS time and its week numbering, and the
/// unit of its clock bias field.
///
/// GPS (IS-GPS-200, 20.3.3.4.3), Galileo (OS SIS ICD 2.0, 5.1.1 and 5.1.4: GST is GPS time to
/// nanoseconds, its week 0 GPS week 1024) and BeiDou (BDS-SIS-ICD-B1I 3.0, 5.2.4: BDT is GPS
/// time − 14 s, its week 0 GPS week 1356, CGCS2000's constants).
public struct BroadcastConventions: Hashable, Sendable {
  /// μ of the system's user algorithm, m³/s².
  public var gravitationalConstant: Double
  /// ωₑ of the system's user algorithm, rad/s.
  public var earthRotationRate: Double
  /// Seconds the system's time is behind GPS time.
  public var secondsBehindGPS: Double
  /// The GPS week that is the system's week 0.
  public var weekOffset: Int
  /// One unit of the broadcast af0, seconds.
  public var clockBiasUnit: Double
  /// Seconds between two ephemerides' reference times (toe).
  public var ephemerisPeriodSeconds: Double
  /// True when the ephemeris in force has the latest toe at or before the time (Galileo's
  /// every 10 minutes, BeiDou's every hour: a receiver such as RTKLIB refuses a Galileo
  /// ephemeris whose toe is still ahead); false when it has the nearest (GPS's, in the middle
  /// of its fit interval).
  public var referenceIsPast: Bool
  /// The issue of data counts ephemerides modulo this (IODE 8 bits, IODnav 10, AODE 5).
  public var issueModulus: Int

  /// The conventions of a system, nil for one whose orbits are not broadcast as Kepler
  /// elements (GLONASS, SBAS).
  public static func of(_ constellation: Constellation) -> BroadcastConventions? {
    switch constellation {
    case .gps: return gps
    case .galileo: return galileo
    case .beidou: return beidou
    case .glonass, .sbas: return nil
    }
  }

  public static let gps = BroadcastConventions(
    gravitationalConstant: 3.986005e14, earthRotationRate: 7.2921151467e-5,
    secondsBehindGPS: 0, weekOffset: 0, clockBiasUnit: 0x1p-31, ephemerisPeriodSeconds: 7200,
    referenceIsPast: false, issueModulus: 256)
  public static let galileo = BroadcastConventions(
    gravitationalConstant: 3.986004418e14, earthRotationRate: 7.2921151467e-5,
    secondsBehindGPS: 0, weekOffset: 1024, clockBiasUnit: 0x1p-34, ephemerisPeriodSeconds: 600,
    referenceIsPast: true, issueModulus: 1024)
  public static let beidou = BroadcastConventions(
    gravitationalConstant: 3.986004418e14, earthRotationRate: 7.292115e-5,
    secondsBehindGPS: 14, weekOffset: 1356, clockBiasUnit: 0x1p-33, ephemerisPeriodSeconds: 3600,
    referenceIsPast: true, issueModulus: 32)

  /// The relativistic clock correction's constant F = −2√μ / c², s/√m.
  public var relativisticConstant: Double {
    -2 * gravitationalConstant.squareRoot() / (GPSSignal.speedOfLight * GPSSignal.speedOfLight)
  }
}
