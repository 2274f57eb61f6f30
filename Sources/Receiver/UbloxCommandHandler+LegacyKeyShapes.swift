import UBX

/// The legacy messages of u-blox 9 whose length or text follows their keys: CFG-GEOFENCE
/// has a block per fence in use (CFG-GEOFENCE-USE_FENCE1…4), CFG-RINV as many data bytes as
/// CFG-RINV-DATA_SIZE says, and CFG-DAT reports WGS-84 unless CFG-NAVSPG-USE_USRDAT is set.
extension UbloxCommandHandler {
  /// CFG-RINV's flags and the most data it holds: 30 bytes, in four 8-byte chunk keys.
  static let remoteInventoryCapacity = 1 + 4 * 8
  static let remoteInventoryLimit = 30
  /// CFG-RINV-DATA_SIZE.
  static let remoteInventorySizeKey: UInt32 = 0x20C7_0003
  /// CFG-GEOFENCE-USE_FENCE1…4.
  static let fenceUseKeys: [UInt32] = [0x1024_0020, 0x1024_0030, 0x1024_0040, 0x1024_0050]
  /// CFG-GEOFENCE's header and each fence's block.
  static let fenceHeaderLength = 8
  static let fenceBlockLength = 12

  /// The payload a view overlays its keys on: `stored` resized to the fences in use
  /// (CFG-GEOFENCE) or to the whole inventory (CFG-RINV).
  static func legacyShape(
    _ type: UBXMessageType, of stored: [UInt8], value: (UInt32) -> UInt64
  ) -> [UInt8] {
    switch type {
    case .cfgGEOFENCE:
      let fences = fenceUseKeys.prefix { value($0) == 1 }.count
      var payload = Array(padded(stored, to: fenceHeaderLength).prefix(fenceHeaderLength))
      payload[1] = UInt8(fences)
      let blocks = stored.dropFirst(fenceHeaderLength)
      return payload
        + padded(Array(blocks.prefix(fences * fenceBlockLength)), to: fences * fenceBlockLength)
    case .cfgRINV: return padded(stored, to: remoteInventoryCapacity)
    default: return stored
    }
  }

  /// A view after its keys: CFG-RINV cut to its data size, CFG-DAT named for its datum (or
  /// WGS-84's when no user datum is in use).
  static func legacyFinish(_ type: UBXMessageType, _ payload: [UInt8], value: (UInt32) -> UInt64)
    -> [UInt8]
  {
    switch type {
    case .cfgRINV:
      let size = min(Int(value(remoteInventorySizeKey)), remoteInventoryLimit)
      return Array(payload.prefix(1 + size))
    case .cfgDAT:
      guard littleEndian(payload, 0, 2) == UInt64(UBXDatum.userDatumNumber) else {
        return UBXDatum.wgs84.payload
      }
      var name = UBXPayloadWriter()
      name.characters("USER", width: 6)
      return Array(payload.prefix(2)) + name.bytes + payload.dropFirst(8)
    default: return payload
    }
  }
}
