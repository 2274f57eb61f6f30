/// The NAV and MON messages a u-blox 8 or 9 answers beyond those `UBXMessageType` names, with
/// their names (u-blox 8 / M8 receiver description, protocol 18; ZED-F9P interface
/// description, protocol 27.31).
extension UBXMessageType {
  /// Geodetic position: longitude, latitude, heights and their accuracies.
  public static let navPOSLLH = UBXMessageType(messageClass: 0x01, id: 0x02)
  /// High-precision geodetic position (u-blox 9): NAV-POSLLH with residues below 1e-7° and
  /// 1 mm.
  public static let navHPPOSLLH = UBXMessageType(messageClass: 0x01, id: 0x14)
  /// Receiver navigation status: fix, flags, time to first fix, time since startup.
  public static let navSTATUS = UBXMessageType(messageClass: 0x01, id: 0x03)
  /// Velocity north, east, down, with speed, ground speed and heading.
  public static let navVELNED = UBXMessageType(messageClass: 0x01, id: 0x12)
  /// UTC time solution.
  public static let navTIMEUTC = UBXMessageType(messageClass: 0x01, id: 0x21)
  /// Clock solution: bias, drift and their accuracies.
  public static let navCLOCK = UBXMessageType(messageClass: 0x01, id: 0x22)
  /// GNSS orbit database: each satellite's health, visibility, ephemeris and almanac.
  public static let navORB = UBXMessageType(messageClass: 0x01, id: 0x34)
  /// Position relative to a base station, north, east and down (u-blox 9).
  public static let navRELPOSNED = UBXMessageType(messageClass: 0x01, id: 0x3C)
  /// RTCM 3 output message `number` as u-blox's CFG-MSG names it (class 0xF5): 1005, MSM4 and
  /// MSM7 of GPS, GLONASS, Galileo and BeiDou, 1230 (ID: the number minus 1000), 4072.0
  /// (0xFE) and 4072.1 (0xFD); nil for another.
  public static func rtcmOutput(_ number: Int) -> UBXMessageType? {
    rtcmOutputTypes[number]
  }

  /// `rtcmOutput(_:)`'s table, built once: the encoder asks it every epoch.
  private static let rtcmOutputTypes: [Int: UBXMessageType] = [
    1005: 0x05, 1074: 0x4A, 1077: 0x4D, 1084: 0x54, 1087: 0x57, 1094: 0x5E, 1097: 0x61,
    1124: 0x7C, 1127: 0x7F, 1230: 0xE6, 40720: 0xFE, 40721: 0xFD,
  ].mapValues { UBXMessageType(messageClass: 0xF5, id: UInt8($0)) }

  /// Survey-in of a reference station (u-blox 9 HPG).
  public static let navSVIN = UBXMessageType(messageClass: 0x01, id: 0x3B)
  /// Signal information: one block per signal tracked (u-blox 9).
  public static let navSIG = UBXMessageType(messageClass: 0x01, id: 0x43)
  /// Message parse and process status: messages received per protocol and port.
  public static let monMSGPP = UBXMessageType(messageClass: 0x0A, id: 0x06)
  /// Receiver buffer status.
  public static let monRXBUF = UBXMessageType(messageClass: 0x0A, id: 0x07)
  /// Transmitter buffer status.
  public static let monTXBUF = UBXMessageType(messageClass: 0x0A, id: 0x08)
  /// Hardware status: antenna, noise, automatic gain control, jamming.
  public static let monHW = UBXMessageType(messageClass: 0x0A, id: 0x09)
  /// Extended hardware status: I/Q imbalance, configuration source (u-blox 8).
  public static let monHW2 = UBXMessageType(messageClass: 0x0A, id: 0x0B)
  /// The major GNSS supported, enabled by default, enabled, and tracked at once.
  public static let monGNSS = UBXMessageType(messageClass: 0x0A, id: 0x28)
  /// Communication port information (u-blox 9).
  public static let monCOMMS = UBXMessageType(messageClass: 0x0A, id: 0x36)
  /// RF information per RF block (u-blox 9).
  public static let monRF = UBXMessageType(messageClass: 0x0A, id: 0x38)

  /// The names of the messages above, within their class.
  static let navigationAndMonitorNames: [UBXMessageType: String] = [
    .navPOSLLH: "POSLLH", .navHPPOSLLH: "HPPOSLLH", .navSTATUS: "STATUS", .navVELNED: "VELNED",
    .navTIMEUTC: "TIMEUTC",
    .navCLOCK: "CLOCK", .navORB: "ORB", .navRELPOSNED: "RELPOSNED", .navSIG: "SIG",
    .navSVIN: "SVIN",
    .monMSGPP: "MSGPP", .monRXBUF: "RXBUF", .monTXBUF: "TXBUF",
    .monHW: "HW", .monHW2: "HW2", .monGNSS: "GNSS", .monCOMMS: "COMMS", .monRF: "RF",
  ]
}
