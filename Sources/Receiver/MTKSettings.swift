import NMEA

/// The settings a MediaTek chip keeps from PMTK set commands and reports back to its query
/// commands (the "PMTK command packet" manuals of GlobalTop and Quectel for the MT3318/3329/
/// 3339/3333 family). Each value starts at the factory default.
public struct MTKSettings: Hashable, Sendable {
  /// PMTK220/300: the fix interval, milliseconds (polled by PMTK400 → PMTK500).
  public var fixIntervalMilliseconds = 1000
  /// PMTK301: the DGPS source, 0 none, 1 RTCM, 2 WAAS/SBAS (PMTK401 → PMTK501).
  public var dgpsMode = 0
  /// PMTK313: SBAS satellites searched (PMTK413 → PMTK513).
  public var sbasEnabled = false
  /// PMTK319: SBAS mode, 0 testing, 1 integrity.
  public var sbasIntegrity = true
  /// PMTK386/PMTK397: the static navigation speed threshold, m/s; 0 off (PMTK447 → PMTK527).
  public var staticThresholdMetersPerSecond = 0.0
  /// PMTK869: EASY (self-generated orbit prediction) on (PMTK869,0 → PMTK869,2).
  public var easyEnabled = true
  /// PMTK886: navigation mode, 0 normal, 1 fitness, 2 aviation, 3 balloon.
  public var navigationMode = 0
  /// PMTK225: periodic power mode, 0 normal, 1 periodic backup, 2 periodic standby, 4
  /// perpetual backup, 8 AlwaysLocate standby, 9 AlwaysLocate backup.
  public var periodicMode = 0

  /// The factory settings.
  public init() {}

  /// The thresholds PMTK386 accepts, m/s.
  static let staticThresholds: [Double] = [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0]

  /// `0.40`: two decimals, as PMTK527 writes the threshold.
  static func twoDecimals(_ value: Double) -> String {
    NMEADecimal(value, fractionDigits: 2).description
  }
}
