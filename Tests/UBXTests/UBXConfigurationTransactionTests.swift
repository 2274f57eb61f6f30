import Testing
import UBX

/// CFG-VALSET version 1 with a transaction and CFG-VALDEL, on frames pyubx2 1.4.0 serialized:
/// `UBXMessage.config_set(6, 1, [("CFG_NAVSPG_DYNMODEL", 6)])` and
/// `UBXMessage.config_del(4, 0, ["CFG_ODO_USE_ODO", "CFG_NAVSPG_DYNMODEL"])`.
@Suite struct UBXConfigurationTransactionTests {
  static let valsetBeginningATransaction: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8A, 0x09, 0x00, 0x01, 0x06, 0x01, 0x00, 0x21, 0x00, 0x11, 0x20, 0x06, 0xF9,
    0x87,
  ]
  static let valdelFromFlash: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8C, 0x0C, 0x00, 0x00, 0x04, 0x00, 0x00, 0x01, 0x00, 0x22, 0x10, 0x21, 0x00,
    0x11, 0x20, 0x27, 0x52,
  ]

  @Test func valsetVersionOneCarriesItsTransaction() throws {
    let frame = try UBXFrame(parsing: Self.valsetBeginningATransaction)
    let valueSet = try #require(UBXValueSet(payload: frame.payload))
    #expect(valueSet.layerSet == [.batteryBacked, .flash])
    #expect(valueSet.transaction == .begin)
    #expect(
      valueSet.items == [UBXConfigurationItem(key: UBXConfigurationKey(0x2011_0021), value: 6)])
  }

  @Test func anEmptyValsetIsOnlyAcceptedToCloseATransaction() {
    #expect(UBXValueSet(payload: [1, 1, 3, 0])?.transaction == .apply)
    #expect(UBXValueSet(payload: [1, 1, 0, 0]) == nil)
    #expect(UBXValueSet(payload: [0, 1, 3, 0]) == nil)
  }

  @Test func valdelReadsLayersAndKeys() throws {
    let frame = try UBXFrame(parsing: Self.valdelFromFlash)
    #expect(frame.messageType == .cfgVALDEL)
    let request = try #require(UBXValueDelete(payload: frame.payload))
    #expect(request.layerSet == .flash && request.transaction == UBXConfigurationTransaction.none)
    #expect(request.keys == [UBXConfigurationKey(0x1022_0001), UBXConfigurationKey(0x2011_0021)])
    #expect(UBXValueDelete(payload: Array(frame.payload.dropLast())) == nil)
    #expect(UBXValueDelete(payload: [0, 4, 0, 0]) == nil)
    #expect(UBXValueDelete(payload: [2, 4, 0, 0, 1, 0, 0x22, 0x10]) == nil)
  }
}
