/// The standard NMEA sentences as UBX message types (class `0xF0`), which CFG-MSG uses to set
/// how often each goes out.
extension UBXMessageType {
  /// The class of the standard NMEA sentences in CFG-MSG.
  public static let nmeaStandardClass: UInt8 = 0xF0

  /// The sentence types, without talker, by ID within class `0xF0`.
  static let nmeaSentenceIDs: [String: UInt8] = [
    "GGA": 0x00, "GLL": 0x01, "GSA": 0x02, "GSV": 0x03, "RMC": 0x04, "VTG": 0x05, "GRS": 0x06,
    "GST": 0x07, "ZDA": 0x08, "GBS": 0x09, "DTM": 0x0A, "GNS": 0x0D, "VLW": 0x0F, "TXT": 0x41,
  ]

  /// The class of u-blox's proprietary PUBX sentences in CFG-MSG.
  public static let nmeaProprietaryClass: UInt8 = 0xF1

  /// The PUBX sentences the chip sends periodically, named with their message ID, by ID within
  /// class `0xF1`.
  static let pubxSentenceIDs: [String: UInt8] = ["PUBX,00": 0x00, "PUBX,03": 0x03, "PUBX,04": 0x04]

  /// The CFG-MSG type of an NMEA sentence type (`"GGA"` → `F0 00`, `"PUBX,00"` → `F1 00`), or
  /// nil for one without.
  public init?(nmeaSentence type: String) {
    if let id = Self.nmeaSentenceIDs[type] {
      self.init(messageClass: Self.nmeaStandardClass, id: id)
    } else if let id = Self.pubxSentenceIDs[type] {
      self.init(messageClass: Self.nmeaProprietaryClass, id: id)
    } else {
      return nil
    }
  }

  /// The NMEA sentence type this stands for in CFG-MSG (`"PUBX,00"` for a PUBX one), or nil.
  public var nmeaSentence: String? {
    switch messageClass {
    case Self.nmeaStandardClass: return Self.nmeaSentenceIDs.first { $0.value == id }?.key
    case Self.nmeaProprietaryClass: return Self.pubxSentenceIDs.first { $0.value == id }?.key
    default: return nil
    }
  }
}
