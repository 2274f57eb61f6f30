/// The CFG messages of the u-blox 8 / M8 receiver description (UBX-13003221, protocols 15–23.01)
/// and the legacy CFG messages of u-blox 9, with their names.
extension UBXMessageType {
  /// Clears, saves and loads configuration sections (BBR, flash).
  public static let cfgCFG = UBXMessageType(messageClass: 0x06, id: 0x09)
  /// Resets the receiver and clears backup data; never acknowledged.
  public static let cfgRST = UBXMessageType(messageClass: 0x06, id: 0x04)
  /// Information message output per protocol and port.
  public static let cfgINF = UBXMessageType(messageClass: 0x06, id: 0x02)
  /// Geodetic datum.
  public static let cfgDAT = UBXMessageType(messageClass: 0x06, id: 0x06)
  /// Receiver manager (power mode).
  public static let cfgRXM = UBXMessageType(messageClass: 0x06, id: 0x11)
  /// Antenna control.
  public static let cfgANT = UBXMessageType(messageClass: 0x06, id: 0x13)
  /// SBAS settings.
  public static let cfgSBAS = UBXMessageType(messageClass: 0x06, id: 0x16)
  /// NMEA protocol settings.
  public static let cfgNMEA = UBXMessageType(messageClass: 0x06, id: 0x17)
  /// USB descriptors and power.
  public static let cfgUSB = UBXMessageType(messageClass: 0x06, id: 0x1B)
  /// Odometer, low-speed course and velocity filters.
  public static let cfgODO = UBXMessageType(messageClass: 0x06, id: 0x1E)
  /// Navigation engine expert settings.
  public static let cfgNAVX5 = UBXMessageType(messageClass: 0x06, id: 0x23)
  /// Navigation engine settings (dynamic model, fix mode, masks).
  public static let cfgNAV5 = UBXMessageType(messageClass: 0x06, id: 0x24)
  /// Time pulse parameters.
  public static let cfgTP5 = UBXMessageType(messageClass: 0x06, id: 0x31)
  /// Remote inventory.
  public static let cfgRINV = UBXMessageType(messageClass: 0x06, id: 0x34)
  /// Jamming and interference monitor.
  public static let cfgITFM = UBXMessageType(messageClass: 0x06, id: 0x39)
  /// Extended power management.
  public static let cfgPM2 = UBXMessageType(messageClass: 0x06, id: 0x3B)
  /// Survey-in and fixed position of timing receivers (TIM 1.x).
  public static let cfgTMODE2 = UBXMessageType(messageClass: 0x06, id: 0x3D)
  /// GNSS systems and tracking channels.
  public static let cfgGNSS = UBXMessageType(messageClass: 0x06, id: 0x3E)
  /// Data logger filter.
  public static let cfgLOGFILTER = UBXMessageType(messageClass: 0x06, id: 0x47)
  /// Power state (deprecated).
  public static let cfgPWR = UBXMessageType(messageClass: 0x06, id: 0x57)
  /// High navigation rate (ADR and UDR products).
  public static let cfgHNR = UBXMessageType(messageClass: 0x06, id: 0x5C)
  /// Geofences.
  public static let cfgGEOFENCE = UBXMessageType(messageClass: 0x06, id: 0x69)
  /// Differential GNSS (high precision products).
  public static let cfgDGNSS = UBXMessageType(messageClass: 0x06, id: 0x70)
  /// Time mode of high precision and timing products.
  public static let cfgTMODE3 = UBXMessageType(messageClass: 0x06, id: 0x71)
  /// Programmed fixed seed of the host interface signature.
  public static let cfgFIXSEED = UBXMessageType(messageClass: 0x06, id: 0x84)
  /// Dynamic seed of the host interface signature.
  public static let cfgDYNSEED = UBXMessageType(messageClass: 0x06, id: 0x85)
  /// Power mode setup.
  public static let cfgPMS = UBXMessageType(messageClass: 0x06, id: 0x86)
  /// Data batching (protocol 23.01).
  public static let cfgBATCH = UBXMessageType(messageClass: 0x06, id: 0x93)
  /// QZSS L1S SLAS settings.
  public static let cfgSLAS = UBXMessageType(messageClass: 0x06, id: 0x8D)
  /// Deletes configuration items by key (u-blox 9 and later).
  public static let cfgVALDEL = UBXMessageType(messageClass: 0x06, id: 0x8C)

  /// The names within class CFG, by ID.
  static let configurationNames: [UInt8: String] = [
    0x00: "PRT", 0x01: "MSG", 0x02: "INF", 0x04: "RST", 0x06: "DAT", 0x08: "RATE", 0x09: "CFG",
    0x11: "RXM", 0x13: "ANT", 0x16: "SBAS", 0x17: "NMEA", 0x1B: "USB", 0x1E: "ODO", 0x23: "NAVX5",
    0x24: "NAV5", 0x31: "TP5", 0x34: "RINV", 0x39: "ITFM", 0x3B: "PM2", 0x3D: "TMODE2",
    0x3E: "GNSS", 0x47: "LOGFILTER", 0x57: "PWR", 0x5C: "HNR", 0x69: "GEOFENCE", 0x70: "DGNSS",
    0x71: "TMODE3", 0x84: "FIXSEED", 0x85: "DYNSEED", 0x86: "PMS", 0x8A: "VALSET",
    0x8B: "VALGET", 0x8C: "VALDEL", 0x8D: "SLAS", 0x93: "BATCH",
  ]

  /// The name of a CFG message within its class, or nil for another class or an unknown ID.
  static func configurationName(of type: UBXMessageType) -> String? {
    guard type.messageClass == configurationClass else { return nil }
    return configurationNames[type.id]
  }
}
