/// The SiRF binary message IDs mockgps sends or answers (SiRF Binary Protocol Reference
/// Manual; gpsd's `driver_sirf.c` names the same).
public enum SiRFMessageID {
  // Output messages, chip to host.
  /// Measured navigation data: ECEF position and velocity, mode, HDOP, GPS week and time.
  public static let measuredNavigation: UInt8 = 2
  /// Measured tracker data: twelve channels with azimuth, elevation, state and C/N0.
  public static let measuredTracker: UInt8 = 4
  /// Software version string.
  public static let softwareVersion: UInt8 = 6
  /// Clock status: extended week, time, drift, bias.
  public static let clockStatus: UInt8 = 7
  /// CPU throughput.
  public static let throughput: UInt8 = 9
  /// Command acknowledgement.
  public static let acknowledgement: UInt8 = 11
  /// Command negative acknowledgement.
  public static let negativeAcknowledgement: UInt8 = 12
  /// Navigation parameters, the answer to `pollNavigationParameters`.
  public static let navigationParameters: UInt8 = 19
  /// Geodetic navigation data: latitude, longitude, heights, speed, course, errors.
  public static let geodeticNavigation: UInt8 = 41
  /// Development data: text.
  public static let developmentData: UInt8 = 255

  // Input messages, host to chip.
  /// Initialize data source: a restart, with what to clear.
  public static let initializeDataSource: UInt8 = 128
  /// Switch to NMEA protocol, with the sentences' rates and the baud.
  public static let switchToNMEA: UInt8 = 129
  /// Poll software version.
  public static let pollSoftwareVersion: UInt8 = 132
  /// DGPS source.
  public static let dgpsSource: UInt8 = 133
  /// Set binary serial port: baud, data bits, stop bits, parity.
  public static let setBinarySerialPort: UInt8 = 134
  /// Mode control: degraded mode, altitude hold, track smoothing.
  public static let modeControl: UInt8 = 136
  /// Poll clock status.
  public static let pollClockStatus: UInt8 = 144
  /// Poll navigation parameters.
  public static let pollNavigationParameters: UInt8 = 152
  /// Set message rate: one or all output messages.
  public static let setMessageRate: UInt8 = 166
  /// Set SBAS parameters.
  public static let sbasParameters: UInt8 = 170
}
