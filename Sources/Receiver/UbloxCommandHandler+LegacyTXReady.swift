import UBX

/// CFG-PRT's `txReady` (en bit 0, pol bit 1, pin bits 2–6, thres bits 7–15) on u-blox 9: the
/// CFG-TXREADY-* keys, which serve one interface, CFG-TXREADY-INTERFACE (I2C 0, SPI 1). The
/// port they serve reports them; the other reports its field as stored with `en` clear. A
/// block that enables TX ready moves it to its port; one that disables it changes the keys
/// only on the port they serve.
extension UbloxCommandHandler {
  /// CFG-TXREADY-ENABLED, POLARITY, PIN, THRESHOLD and INTERFACE.
  static let txReadyEnabledKey: UInt32 = 0x10A2_0001
  static let txReadyPolarityKey: UInt32 = 0x10A2_0002
  static let txReadyPinKey: UInt32 = 0x20A2_0003
  static let txReadyThresholdKey: UInt32 = 0x30A2_0004
  static let txReadyInterfaceKey: UInt32 = 0x20A2_0005

  /// CFG-TXREADY-INTERFACE's value for a CFG-PRT port: I2C (0) is 0, SPI (4) 1; nil for a port
  /// without TX ready.
  static func txReadyInterface(port: UInt16) -> UInt64? {
    switch port {
    case 0: return 0
    case 4: return 1
    default: return nil
    }
  }

  /// A CFG-PRT block with its `txReady` field as the keys give it.
  static func txReadyView(_ port: UInt16, of block: [UInt8], value: (UInt32) -> UInt64)
    -> [UInt8]
  {
    guard let interface = txReadyInterface(port: port), block.count >= 4 else { return block }
    var field = littleEndian(block, 2, 2) & ~1
    if value(txReadyInterfaceKey) == interface {
      field =
        value(txReadyEnabledKey) & 1 | (value(txReadyPolarityKey) & 1) << 1
        | (value(txReadyPinKey) & 0x1F) << 2 | (value(txReadyThresholdKey) & 0x1FF) << 7
    }
    var result = block
    write(field, into: &result, at: 2, width: 2)
    return result
  }

  /// The keys a CFG-PRT block's `txReady` sets, given the interface they now serve.
  static func txReadyItems(_ port: UInt16, from block: [UInt8], servedInterface: UInt64)
    -> [UBXConfigurationItem]
  {
    guard let interface = txReadyInterface(port: port), block.count >= 4 else { return [] }
    let field = littleEndian(block, 2, 2)
    guard field & 1 == 1 || servedInterface == interface else { return [] }
    let values: [(UInt32, UInt64)] = [
      (txReadyEnabledKey, field & 1), (txReadyPolarityKey, field >> 1 & 1),
      (txReadyPinKey, field >> 2 & 0x1F), (txReadyThresholdKey, field >> 7 & 0x1FF),
      (txReadyInterfaceKey, interface),
    ]
    return values.map { UBXConfigurationItem(key: UBXConfigurationKey($0.0), value: $0.1) }
  }
}
