/// The physical constants and signal of GPS L1 C/A as IS-GPS-200 gives them.
public enum GPSSignal {
  /// The speed of light, m/s (IS-GPS-200, 20.3.4.3).
  public static let speedOfLight = 299_792_458.0
  /// The L1 carrier frequency, Hz.
  public static let l1FrequencyHertz = 1_575_420_000.0
  /// The L1 wavelength, meters.
  public static var l1WavelengthMeters: Double { speedOfLight / l1FrequencyHertz }
  /// WGS-84 value of the Earth's rotation rate, rad/s.
  public static let earthRotationRate = 7.2921151467e-5
  /// Seconds in a GPS week.
  public static let secondsPerWeek = 604_800.0
}
