/// A UBX message type: class and ID, with the u-blox names of the few this emulator knows.
///
/// Names follow the u-blox receiver descriptions: `CFG-RATE` is class `0x06` (CFG), ID `0x08`.
/// Unknown classes and IDs print in hexadecimal: `CFG-0x42`, `0x99-0x01`.
public struct UBXMessageType: Hashable, Sendable, CustomStringConvertible {
  /// The message class.
  public var messageClass: UInt8
  /// The message ID within its class.
  public var id: UInt8

  /// Creates a message type from its class and ID.
  public init(messageClass: UInt8, id: UInt8) {
    self.messageClass = messageClass
    self.id = id
  }

  /// The configuration class, CFG.
  public static let configurationClass: UInt8 = 0x06

  /// Position in Earth-centred, Earth-fixed coordinates.
  public static let navPOSECEF = UBXMessageType(messageClass: 0x01, id: 0x01)
  /// Dilutions of precision.
  public static let navDOP = UBXMessageType(messageClass: 0x01, id: 0x04)
  /// Navigation solution (u-blox 6–8): ECEF position and velocity, fix, week.
  public static let navSOL = UBXMessageType(messageClass: 0x01, id: 0x06)
  /// Navigation position, velocity and time solution.
  public static let navPVT = UBXMessageType(messageClass: 0x01, id: 0x07)
  /// Velocity in Earth-centred, Earth-fixed coordinates.
  public static let navVELECEF = UBXMessageType(messageClass: 0x01, id: 0x11)
  /// GPS time: week, time of week, leap seconds.
  public static let navTIMEGPS = UBXMessageType(messageClass: 0x01, id: 0x20)
  /// Space vehicle information (u-blox 6–8).
  public static let navSVINFO = UBXMessageType(messageClass: 0x01, id: 0x30)
  /// Satellite information (u-blox 8 and later).
  public static let navSAT = UBXMessageType(messageClass: 0x01, id: 0x35)
  /// End of the epoch's navigation messages.
  public static let navEOE = UBXMessageType(messageClass: 0x01, id: 0x61)
  /// Message not acknowledged.
  public static let ackNAK = UBXMessageType(messageClass: 0x05, id: 0x00)
  /// Message acknowledged.
  public static let ackACK = UBXMessageType(messageClass: 0x05, id: 0x01)
  /// Port configuration (baud, protocols in and out).
  public static let cfgPRT = UBXMessageType(messageClass: 0x06, id: 0x00)
  /// Message rate: how often each message is output.
  public static let cfgMSG = UBXMessageType(messageClass: 0x06, id: 0x01)
  /// Navigation and measurement rate.
  public static let cfgRATE = UBXMessageType(messageClass: 0x06, id: 0x08)
  /// Sets configuration items by key (u-blox 9 and later).
  public static let cfgVALSET = UBXMessageType(messageClass: 0x06, id: 0x8A)
  /// Polls configuration items by key (u-blox 9 and later).
  public static let cfgVALGET = UBXMessageType(messageClass: 0x06, id: 0x8B)
  /// Receiver and software version.
  public static let monVER = UBXMessageType(messageClass: 0x0A, id: 0x04)

  /// The class names, by class byte.
  static let classNames: [UInt8: String] = [
    0x01: "NAV", 0x02: "RXM", 0x04: "INF", 0x05: "ACK", 0x06: "CFG", 0x09: "UPD", 0x0A: "MON",
    0x0B: "AID", 0x0D: "TIM", 0x10: "ESF", 0x13: "MGA", 0x21: "LOG", 0x27: "SEC", 0x28: "HNR",
  ]

  /// The message names within their class, by type.
  static let messageNames: [UBXMessageType: String] = [
    .navPOSECEF: "POSECEF", .navDOP: "DOP", .navSOL: "SOL", .navPVT: "PVT",
    .navVELECEF: "VELECEF", .navTIMEGPS: "TIMEGPS", .navSVINFO: "SVINFO", .navSAT: "SAT",
    .navEOE: "EOE", .cfgVALSET: "VALSET", .cfgVALGET: "VALGET", .ackNAK: "NAK", .ackACK: "ACK",
    .cfgPRT: "PRT", .cfgMSG: "MSG",
    .cfgRATE: "RATE", .monVER: "VER",
  ]

  /// The class name, such as `CFG`, or nil for a class not listed here.
  public var className: String? { Self.classNames[messageClass] }

  /// The full name, such as `CFG-RATE`, or nil for a message not listed here.
  public var name: String? {
    guard let className,
      let messageName = Self.messageNames[self] ?? Self.configurationName(of: self)
        ?? Self.navigationAndMonitorNames[self] ?? Self.receiverManagerNames[self]
    else { return nil }
    return "\(className)-\(messageName)"
  }

  /// The name where known, otherwise class and ID with hexadecimal for the unknown parts.
  public var description: String {
    if let name { return name }
    let classText = className ?? "0x\(UBXFrame.hex(messageClass))"
    return "\(classText)-0x\(UBXFrame.hex(id))"
  }
}
