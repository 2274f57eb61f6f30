import Testing
import UBX

/// Reference frames from pyubx2 1.4.0, e.g.
/// `UBXMessage.config_set(1, 0, [("CFG_MSGOUT_UBX_NAV_PVT_UART1", 1), …]).serialize()`.
@Suite struct UBXConfigurationMessageTests {
  static let valset: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8A, 0x14, 0x00, 0x00, 0x01, 0x00, 0x00, 0x07, 0x00, 0x91, 0x20, 0x01, 0x02,
    0x00, 0x74, 0x10, 0x00, 0x01, 0x00, 0x21, 0x30, 0xC8, 0x00, 0xFE, 0x1F,
  ]
  static let valgetPoll: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8B, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x21, 0x30, 0x01, 0x00,
    0x52, 0x40, 0x82, 0xD3,
  ]
  static let cfgPRT115200: [UInt8] = [
    0xB5, 0x62, 0x06, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0xC0, 0x08, 0x00, 0x00, 0x00, 0xC2,
    0x01, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xAA, 0x52,
  ]

  @Test func valsetReadsEveryKeyWithItsSize() throws {
    let frame = try UBXFrame(parsing: Self.valset)
    let valueSet = try #require(UBXValueSet(payload: frame.payload))
    #expect(valueSet.layers == 1)
    #expect(
      valueSet.items == [
        UBXConfigurationItem(key: UBXConfigurationKey(0x2091_0007), value: 1),
        UBXConfigurationItem(key: .uart1OutputNMEA, value: 0),
        UBXConfigurationItem(key: .rateMeasurement, value: 200),
      ])
  }

  @Test func aValsetCutShortOrWithAReservedSizeIsRefused() throws {
    let payload = try UBXFrame(parsing: Self.valset).payload
    #expect(UBXValueSet(payload: Array(payload.dropLast())) == nil)
    #expect(UBXValueSet(payload: Array(payload.prefix(4))) == nil)
    #expect(UBXValueSet(payload: [0, 1, 0, 0, 0x01, 0x00, 0x00, 0x70, 0x00]) == nil)
  }

  @Test func valgetAnswersWithVersionOneAndTheValues() throws {
    let poll = try #require(UBXValueGet(payload: try UBXFrame(parsing: Self.valgetPoll).payload))
    #expect(poll.keys == [.rateMeasurement, .uart1Baud])
    let answer = poll.answer([
      UBXConfigurationItem(key: .rateMeasurement, value: 1000),
      UBXConfigurationItem(key: .uart1Baud, value: 38400),
    ])
    #expect(
      answer.payload == [
        1, 0, 0, 0, 0x01, 0x00, 0x21, 0x30, 0xE8, 0x03, 0x01, 0x00, 0x52, 0x40, 0x00, 0x96, 0, 0,
      ])
  }

  @Test func cfgPRTRoundTrips() throws {
    let frame = try UBXFrame(parsing: Self.cfgPRT115200)
    let port = try #require(UBXPortConfiguration(payload: frame.payload))
    #expect(port.baud == 115_200)
    #expect(port.inProtocols == [.ubx, .nmea])
    #expect(port.outProtocols == [.ubx])
    #expect(port.frame == frame)
    #expect(UBXPortConfiguration(payload: Array(frame.payload.dropLast())) == nil)
  }

  @Test func cfgMSGHasThreeFormsAndAReport() {
    #expect(
      UBXMessageRateCommand(payload: [0xF0, 0x00])
        == .poll(UBXMessageType(messageClass: 0xF0, id: 0x00)))
    #expect(UBXMessageRateCommand(payload: [0x01, 0x07, 1]) == .setCurrentPort(.navPVT, rate: 1))
    #expect(
      UBXMessageRateCommand(payload: [0x01, 0x35, 0, 5, 0, 0, 0, 0])
        == .setPorts(.navSAT, rates: [0, 5, 0, 0, 0, 0]))
    #expect(UBXMessageRateCommand(payload: [0x01, 0x35, 0, 5]) == nil)
    #expect(
      UBXMessageRateCommand.report(.navPVT, uart1Rate: 2).payload == [1, 7, 0, 2, 0, 0, 0, 0])
  }

  @Test func monVERRoundTripsAndNamesItsProtocolVersion() throws {
    let version = UBXVersion(
      software: "ROM CORE 3.01 (107888)", hardware: "00080000",
      extensions: ["FWVER=SPG 3.01", "PROTVER=18.00"])
    #expect(version.frame.payload.count == 40 + 2 * 30)
    #expect(UBXVersion(payload: version.frame.payload) == version)
    #expect(version.protocolVersion == 18)
    #expect(UBXVersion(payload: Array(repeating: 0x41, count: 39)) == nil)
  }

  @Test func nmeaSentencesHaveTheirCFGMSGIDs() {
    #expect(UBXMessageType(nmeaSentence: "GSV") == UBXMessageType(messageClass: 0xF0, id: 0x03))
    #expect(UBXMessageType(messageClass: 0xF0, id: 0x08).nmeaSentence == "ZDA")
    #expect(UBXMessageType.navPVT.nmeaSentence == nil)
    #expect(UBXMessageType(nmeaSentence: "XYZ") == nil)
    #expect(UBXMessageType.navSAT.description == "NAV-SAT")
    #expect(UBXMessageType.cfgVALSET.description == "CFG-VALSET")
  }
}
