/// A configuration item key of CFG-VALSET and CFG-VALGET (u-blox 9 and later): a 32-bit ID
/// whose bits 28–30 give the size of its value.
public struct UBXConfigurationKey: Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt32

  /// Creates a key from its 32-bit ID.
  public init(_ rawValue: UInt32) {
    self.rawValue = rawValue
  }

  /// Bytes of the value on the wire (1 for a 1-bit item), or nil for a reserved size code.
  public var valueByteCount: Int? {
    switch (rawValue >> 28) & 0x07 {
    case 1, 2: return 1
    case 3: return 2
    case 4: return 4
    case 5: return 8
    default: return nil
    }
  }

  public var description: String {
    "0x"
      + (0..<4).reversed().map { UBXFrame.hex(UInt8(truncatingIfNeeded: rawValue >> (8 * $0))) }
      .joined()
  }

  /// `CFG-RATE-MEAS`: measurement period, ms.
  public static let rateMeasurement = UBXConfigurationKey(0x3021_0001)
  /// `CFG-RATE-NAV`: measurements per navigation epoch.
  public static let rateNavigation = UBXConfigurationKey(0x3021_0002)
  /// `CFG-UART1-BAUDRATE`.
  public static let uart1Baud = UBXConfigurationKey(0x4052_0001)
  /// `CFG-NAVSPG-CONSTR_DGNSSTO`: how old corrections may be before they are dropped, s.
  public static let correctionTimeout = UBXConfigurationKey(0x2011_00C4)
  /// `CFG-NAVHPG-DGNSSMODE`: 2 RTK float, 3 RTK fixed.
  public static let differentialMode = UBXConfigurationKey(0x2014_0011)
  /// `CFG-UART1OUTPROT-UBX`.
  public static let uart1OutputUBX = UBXConfigurationKey(0x1074_0001)
  /// `CFG-UART1OUTPROT-NMEA`.
  public static let uart1OutputNMEA = UBXConfigurationKey(0x1074_0002)

  /// The standard NMEA sentence with this ID in class `0xF0`.
  private static func nmea(_ id: UInt8) -> UBXMessageType {
    UBXMessageType(messageClass: UBXMessageType.nmeaStandardClass, id: id)
  }

  /// The CFG-MSG type of a PUBX sentence by its message ID (`0x04` for PUBX,04).
  private static func pubx(_ id: UInt8) -> UBXMessageType {
    UBXMessageType(messageClass: UBXMessageType.nmeaProprietaryClass, id: id)
  }

  /// The CFG-MSG type of an RTCM output message (`UBXMessageType.rtcmOutput`).
  private static func rtcm(_ number: Int) -> UBXMessageType {
    UBXMessageType.rtcmOutput(number) ?? UBXMessageType(messageClass: 0xF5, id: 0)
  }

  /// `CFG-MSGOUT-…_UART1`: the output rate of each message on UART1.
  public static let uart1MessageRates: [UBXMessageType: UBXConfigurationKey] = [
    .navPVT: .init(0x2091_0007), .navSAT: .init(0x2091_0016), .navDOP: .init(0x2091_0039),
    .navTIMEGPS: .init(0x2091_0048), .navPOSECEF: .init(0x2091_0025),
    .navVELECEF: .init(0x2091_003E), .navEOE: .init(0x2091_0160), .navSOL: .init(0x2091_0002),
    .navSVINFO: .init(0x2091_000C), .navPOSLLH: .init(0x2091_002A),
    .navHPPOSLLH: .init(0x2091_0034), .monHW: .init(0x2091_01B5), .monHW2: .init(0x2091_01BA),
    .monRF: .init(0x2091_035A), .monCOMMS: .init(0x2091_0350), .navSIG: .init(0x2091_0346),
    .navORB: .init(0x2091_0011), .navRELPOSNED: .init(0x2091_008E),
    .navSVIN: .init(0x2091_0089), rtcm(1005): .init(0x2091_02BE), rtcm(1074): .init(0x2091_035F),
    rtcm(1077): .init(0x2091_02CD), rtcm(1084): .init(0x2091_0364), rtcm(1087): .init(0x2091_02D2),
    rtcm(1094): .init(0x2091_0369), rtcm(1097): .init(0x2091_0319), rtcm(1124): .init(0x2091_036E),
    rtcm(1127): .init(0x2091_02D7), rtcm(1230): .init(0x2091_0304),
    rtcm(40720): .init(0x2091_02FF), rtcm(40721): .init(0x2091_0382),
    .navSTATUS: .init(0x2091_001B), .navVELNED: .init(0x2091_0043),
    .navTIMEUTC: .init(0x2091_005C), .navCLOCK: .init(0x2091_0066), nmea(0x00): .init(0x2091_00BB),
    .rxmRAWX: .init(0x2091_02A5), .rxmSFRBX: .init(0x2091_0232), .rxmRTCM: .init(0x2091_0269),
    nmea(0x01): .init(0x2091_00CA),
    nmea(0x02): .init(0x2091_00C0),
    nmea(0x03): .init(0x2091_00C5),
    nmea(0x04): .init(0x2091_00AC),
    nmea(0x05): .init(0x2091_00B1),
    nmea(0x06): .init(0x2091_00CF),
    nmea(0x07): .init(0x2091_00D4),
    nmea(0x08): .init(0x2091_00D9),
    nmea(0x09): .init(0x2091_00DE),
    nmea(0x0A): .init(0x2091_00A7),
    nmea(0x0D): .init(0x2091_00B6),
    nmea(0x0F): .init(0x2091_00E8),
    pubx(0x00): .init(0x2091_00ED),
    pubx(0x03): .init(0x2091_00F2),
    pubx(0x04): .init(0x2091_00F7),
  ]
}

/// One key and its value, as CFG-VALSET sets and CFG-VALGET reports it.
public struct UBXConfigurationItem: Hashable, Sendable {
  public var key: UBXConfigurationKey
  /// The value, little-endian bytes read as an unsigned number.
  public var value: UInt64

  /// Creates an item.
  public init(key: UBXConfigurationKey, value: UInt64) {
    self.key = key
    self.value = value
  }

  /// Reads key-value pairs to the end of `reader`; nil when a size is reserved or a value is cut.
  static func readAll(_ reader: inout UBXPayloadReader) -> [UBXConfigurationItem]? {
    var items: [UBXConfigurationItem] = []
    while reader.remainingCount > 0 {
      guard let raw = reader.u4() else { return nil }
      let key = UBXConfigurationKey(raw)
      guard let size = key.valueByteCount, let value = reader.unsigned(byteCount: size) else {
        return nil
      }
      items.append(UBXConfigurationItem(key: key, value: value))
    }
    return items
  }
}

/// A transaction of CFG-VALSET and CFG-VALDEL version 1: the chip stages the changes of
/// `begin` and `continue` messages and applies them all at `apply`, or none of them.
public enum UBXConfigurationTransaction: UInt8, Hashable, Sendable {
  /// Not part of a transaction: applied at once (and every message of version 0).
  case none = 0
  /// Starts a transaction, dropping one under way.
  case begin = 1
  /// Adds to the transaction under way.
  case `continue` = 2
  /// Adds to the transaction under way and applies it.
  case apply = 3
}

/// The layers a configuration message names: RAM 1, BBR 2, flash 4.
public struct UBXConfigurationLayers: OptionSet, Hashable, Sendable {
  public var rawValue: UInt8
  /// The layers of a mask.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let ram = UBXConfigurationLayers(rawValue: 0x01)
  public static let batteryBacked = UBXConfigurationLayers(rawValue: 0x02)
  public static let flash = UBXConfigurationLayers(rawValue: 0x04)
}

/// Reads the header CFG-VALSET and CFG-VALDEL share: version 0 (layers, 2 reserved bytes) or
/// version 1 (layers, transaction, 1 reserved byte); nil when malformed.
private func readLayersAndTransaction(_ reader: inout UBXPayloadReader)
  -> (UInt8, UBXConfigurationTransaction)?
{
  guard let version = reader.u1(), version <= 1, let layers = reader.u1(),
    let action = reader.u1(), reader.u1() != nil
  else { return nil }
  if version == 0 { return (layers, .none) }
  guard let transaction = UBXConfigurationTransaction(rawValue: action & 0x03) else { return nil }
  return (layers, transaction)
}

/// UBX-CFG-VALSET as a client sends it: version 0 or 1, layers (RAM 1, BBR 2, flash 4), the
/// transaction (version 1), then key-value pairs.
public struct UBXValueSet: Hashable, Sendable {
  /// The layer mask as sent (`layerSet` reads it).
  public var layers: UInt8
  public var transaction: UBXConfigurationTransaction
  public var items: [UBXConfigurationItem]

  /// A version 0 VALSET of `items` into `layers` (RAM by default).
  public static func frame(
    _ items: [UBXConfigurationItem], layers: UBXConfigurationLayers = .ram
  ) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(0)
    payload.u1(layers.rawValue)
    payload.u2(0)
    for item in items {
      payload.u4(item.key.rawValue)
      payload.unsigned(item.value, byteCount: item.key.valueByteCount ?? 0)
    }
    return UBXFrame(.cfgVALSET, payload: payload.bytes)
  }

  /// Reads a VALSET payload; nil when it is malformed, or carries no item outside a transaction.
  public init?(payload: [UInt8]) {
    var reader = UBXPayloadReader(payload)
    guard let (layers, transaction) = readLayersAndTransaction(&reader),
      let items = UBXConfigurationItem.readAll(&reader), !items.isEmpty || transaction != .none
    else { return nil }
    self.layers = layers
    self.transaction = transaction
    self.items = items
  }
}

/// UBX-CFG-VALDEL: version 0 or 1, layers (BBR 2, flash 4), the transaction (version 1), then
/// the keys to delete from those layers.
public struct UBXValueDelete: Hashable, Sendable {
  /// The layer mask as sent (`layerSet` reads it).
  public var layers: UInt8
  public var transaction: UBXConfigurationTransaction
  public var keys: [UBXConfigurationKey]

  /// Reads a VALDEL payload; nil when it is malformed or names no key outside a transaction.
  public init?(payload: [UInt8]) {
    var reader = UBXPayloadReader(payload)
    guard let (layers, transaction) = readLayersAndTransaction(&reader),
      reader.remainingCount % 4 == 0, reader.remainingCount > 0 || transaction != .none
    else { return nil }
    var keys: [UBXConfigurationKey] = []
    while let raw = reader.u4() { keys.append(UBXConfigurationKey(raw)) }
    self.layers = layers
    self.transaction = transaction
    self.keys = keys
  }
}

extension UBXValueSet {
  /// The layers this message writes.
  public var layerSet: UBXConfigurationLayers { UBXConfigurationLayers(rawValue: layers) }
}

extension UBXValueDelete {
  /// The layers this message deletes from.
  public var layerSet: UBXConfigurationLayers { UBXConfigurationLayers(rawValue: layers) }
}

/// UBX-CFG-VALGET: a client's poll (version 0, layer, position, keys) and the answer
/// (version 1, layer, position, key-value pairs).
public struct UBXValueGet: Hashable, Sendable {
  public var layer: UInt8
  public var position: UInt16
  public var keys: [UBXConfigurationKey]

  /// Reads a VALGET poll; nil when it is malformed or asks for no key.
  public init?(payload: [UInt8]) {
    var reader = UBXPayloadReader(payload)
    guard let version = reader.u1(), version == 0, let layer = reader.u1(),
      let position = reader.u2(), reader.remainingCount > 0, reader.remainingCount % 4 == 0
    else { return nil }
    var keys: [UBXConfigurationKey] = []
    while let raw = reader.u4() { keys.append(UBXConfigurationKey(raw)) }
    self.layer = layer
    self.position = position
    self.keys = keys
  }

  /// The VALGET answer carrying `items`.
  public func answer(_ items: [UBXConfigurationItem]) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(1)
    payload.u1(layer)
    payload.u2(position)
    for item in items {
      payload.u4(item.key.rawValue)
      payload.unsigned(item.value, byteCount: item.key.valueByteCount ?? 0)
    }
    return UBXFrame(.cfgVALGET, payload: payload.bytes)
  }
}
