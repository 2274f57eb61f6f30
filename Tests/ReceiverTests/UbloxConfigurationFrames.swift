import Receiver
import Testing
import UBX

/// CFG-VALSET, VALGET and VALDEL frames built from item names, and VALGET answers read back,
/// for the configuration database's tests.
enum UbloxConfigurationFrames {
  static let catalogue = UBXConfigurationCatalogue.zedF9P

  /// The key of an item of the ZED-F9P's table (recorded as an issue when the table lacks it).
  static func key(_ name: String) -> UBXConfigurationKey {
    guard let definition = catalogue.definition(named: name) else {
      Issue.record("no item \(name)")
      return UBXConfigurationKey(0)
    }
    return definition.key
  }

  /// VALSET of version 1 (version 0 without a transaction) writing `layers`.
  static func valset(
    _ values: [(String, UInt64)], layers: UInt8 = 1, transaction: UInt8 = 0
  ) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(transaction == 0 ? 0 : 1)
    payload.u1(layers)
    payload.u1(transaction)
    payload.u1(0)
    for (name, value) in values {
      let key = key(name)
      payload.u4(key.rawValue)
      payload.unsigned(value, byteCount: key.valueByteCount ?? 0)
    }
    return UBXFrame(.cfgVALSET, payload: payload.bytes)
  }

  /// VALGET poll of raw keys (wildcards included) in one layer from `position` on.
  static func valget(_ keys: [UInt32], layer: UInt8 = 0, position: UInt16 = 0) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(0)
    payload.u1(layer)
    payload.u2(position)
    for key in keys { payload.u4(key) }
    return UBXFrame(.cfgVALGET, payload: payload.bytes)
  }

  /// VALGET poll of named items.
  static func valget(names: [String], layer: UInt8 = 0) -> UBXFrame {
    valget(names.map { key($0).rawValue }, layer: layer)
  }

  /// VALDEL of raw keys from `layers`.
  static func valdel(_ keys: [UInt32], layers: UInt8, transaction: UInt8 = 0) -> UBXFrame {
    var payload = UBXPayloadWriter()
    payload.u1(transaction == 0 ? 0 : 1)
    payload.u1(layers)
    payload.u1(transaction)
    payload.u1(0)
    for key in keys { payload.u4(key) }
    return UBXFrame(.cfgVALDEL, payload: payload.bytes)
  }

  /// The key-value pairs of the VALGET answer among `effects`, or nil when there is none.
  static func answer(_ effects: [ReceiverEffect]) -> [UBXConfigurationItem]? {
    for effect in effects {
      guard case .reply(let bytes) = effect, let frame = try? UBXFrame(parsing: bytes),
        frame.messageType == .cfgVALGET
      else { continue }
      var reader = UBXPayloadReader(Array(frame.payload.dropFirst(4)))
      var items: [UBXConfigurationItem] = []
      while let raw = reader.u4() {
        let key = UBXConfigurationKey(raw)
        guard let value = reader.unsigned(byteCount: key.valueByteCount ?? 0) else { return nil }
        items.append(UBXConfigurationItem(key: key, value: value))
      }
      return items
    }
    return nil
  }

  /// The value of one named item in a VALGET answer.
  static func value(_ name: String, in effects: [ReceiverEffect]) -> UInt64? {
    answer(effects)?.first { $0.key == key(name) }?.value
  }
}
