import Testing
import UBX

@testable import Receiver

/// A stored CFG message: a setting, the poll that reads it back, and what the chip refuses.
struct ConfigurationCase: CustomTestStringConvertible, Sendable {
  var type: UBXMessageType
  var setting: [UInt8]
  var poll: [UInt8] = []
  /// A payload of a length the message does not have.
  var wrongLength: [UInt8]?
  /// A setting with a field out of its documented range.
  var outOfRange: [UInt8]?

  var testDescription: String { "\(type)" }
  var badLength: [UInt8] { wrongLength ?? setting + [0] }
}

@Suite struct UbloxConfigurationTests {
  static let m8 = UbloxCommandHandlerTests.m8
  static let f9 = UbloxCommandHandlerTests.f9

  /// One case per stored CFG message of the M8 (the typed ones have tests of their own below).
  static let cases: [ConfigurationCase] = [
    ConfigurationCase(
      type: .cfgPRT, setting: port(3, mode: 0, baud: 0, in: 0x01, out: 0x01), poll: [3],
      outOfRange: port(5, mode: 0, baud: 0, in: 0x01, out: 0x01)),
    ConfigurationCase(
      type: .cfgRATE, setting: [0xC8, 0x00, 0x01, 0x00, 0x00, 0x00], wrongLength: [0xC8, 0, 1],
      outOfRange: [0xE8, 0x03, 0x01, 0x00, 0x05, 0x00]),
    ConfigurationCase(
      type: .cfgNAVX5, setting: navigationExpert(minSVs: 4),
      outOfRange: [7] + navigationExpert(minSVs: 4).dropFirst()),
    ConfigurationCase(
      type: .cfgSBAS, setting: [0x01, 0x07, 0x02, 0x00, 0x00, 0x04, 0x08, 0x00],
      outOfRange: [0x01, 0x07, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00]),
    ConfigurationCase(
      type: .cfgNMEA, setting: [0, 0x40, 12, 0x02, 0, 0, 0, 0, 1, 0, 0, 1] + zeros(8),
      outOfRange: [0, 0x30, 0, 0] + zeros(16)),
    ConfigurationCase(
      type: .cfgTP5,
      setting: [1, 1, 0, 0, 0x32, 0, 0, 0, 0x40, 0x42, 0x0F, 0, 0x40, 0x42, 0x0F, 0]
        + [0, 0, 0, 0, 0xA0, 0x86, 0x01, 0, 0, 0, 0, 0, 0x77, 0, 0, 0],
      poll: [1],
      outOfRange: [2, 1, 0, 0] + zeros(28)),
    ConfigurationCase(
      type: .cfgINF, setting: [1, 0, 0, 0, 0x1F, 0x1F, 0, 0x1F, 0, 0], poll: [1],
      outOfRange: [5, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ConfigurationCase(type: .cfgANT, setting: [0x1A, 0x00, 0xF0, 0xB9]),
    ConfigurationCase(
      type: .cfgPMS, setting: [0, 1, 0, 0, 0, 0, 0, 0], outOfRange: [0, 5, 0, 0, 0, 0, 0, 0]),
    ConfigurationCase(
      type: .cfgPM2, setting: [1, 0, 0, 0, 0, 0x90, 2, 0, 0xD0, 0x07, 0, 0] + zeros(32),
      outOfRange: [2, 0, 0, 0] + zeros(40)),
    ConfigurationCase(type: .cfgRXM, setting: [0x08, 0x01], outOfRange: [0x08, 0x02]),
    ConfigurationCase(type: .cfgITFM, setting: [0xF3, 0xAC, 0x62, 0xAD, 0x1E, 0x03, 0x00, 0x00]),
    ConfigurationCase(
      type: .cfgODO, setting: [0, 0, 0, 0, 0x01, 0x03] + zeros(6) + [10, 50, 0, 0, 153, 76, 0, 0],
      outOfRange: [0, 0, 0, 0, 0x01, 0x05] + zeros(14)),
    ConfigurationCase(
      type: .cfgUSB, setting: [0x46, 0x15, 0xA8, 0x01, 0, 0, 1, 0, 0xF4, 0x01, 0, 0] + zeros(96)),
    ConfigurationCase(
      type: .cfgLOGFILTER, setting: [1, 0x03, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      outOfRange: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ConfigurationCase(
      type: .cfgGEOFENCE,
      setting: [0, 1, 3, 0, 0, 0, 0, 0] + [0x80, 0xF0, 0xFA, 0x02, 0x00, 0x7A, 0x7E, 0x1D]
        + [0xE8, 0x03, 0, 0],
      wrongLength: [0, 2, 3, 0, 0, 0, 0, 0] + zeros(12),
      outOfRange: [0, 0, 6, 0, 0, 0, 0, 0]),
    ConfigurationCase(type: .cfgPWR, setting: [1, 0, 0, 0, 0x50, 0x4F, 0x54, 0x53]),
    ConfigurationCase(type: .cfgRINV, setting: [0x01, 0x41, 0x42], wrongLength: zeros(32)),
  ]

  static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

  static func port(_ id: UInt8, mode: UInt32, baud: Int, in inMask: UInt16, out outMask: UInt16)
    -> [UInt8]
  {
    UBXPortConfiguration(
      portID: id, txReady: 0x0001, mode: mode, baud: baud,
      inProtocols: .init(rawValue: inMask), outProtocols: .init(rawValue: outMask)
    ).frame.payload
  }

  static func navigationExpert(minSVs: UInt8) -> [UInt8] {
    [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, minSVs, 32, 6, 0, 0, 0, 0, 0, 0x4B, 0x07] + zeros(20)
  }

  static func ack(_ type: UBXMessageType) -> ReceiverEffect { UbloxCommandHandlerTests.ack(type) }
  static func nak(_ type: UBXMessageType) -> ReceiverEffect { UbloxCommandHandlerTests.nak(type) }

  /// The payload of the first reply, when it is a frame of `type`.
  static func polled(_ type: UBXMessageType, _ effects: [ReceiverEffect]) -> [UInt8]? {
    guard case .reply(let bytes) = effects.first, let frame = try? UBXFrame(parsing: bytes),
      frame.messageType == type, effects.last == ack(type)
    else { return nil }
    return frame.payload
  }

  static func poll(
    _ handler: inout UbloxCommandHandler, _ type: UBXMessageType, _ payload: [UInt8] = []
  )
    -> [UInt8]?
  {
    polled(type, handler.handle(.ubx(UBXFrame(type, payload: payload))))
  }

  @Test func everyStoredM8MessageHasACase() {
    let catalogue = UbloxConfigurationCatalogue(firmware: UbloxFirmware(commandSet: .ubloxM8))
    let typed: Set<UBXMessageType> = [.cfgMSG, .cfgCFG, .cfgRST, .cfgNAV5, .cfgGNSS, .cfgDAT]
    let covered = Set(Self.cases.map(\.type)).union(typed)
    #expect(Set(catalogue.entries.keys) == covered)
  }

  @Test(arguments: cases) func aSettingIsAcknowledgedAndPolledBack(_ row: ConfigurationCase) {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let before = Self.poll(&handler, row.type, row.poll)
    #expect(before != nil && before != row.setting, "the factory value differs from the setting")
    let effects = handler.handle(.ubx(UBXFrame(row.type, payload: row.setting)))
    #expect(effects.first == Self.ack(row.type))
    #expect(Self.poll(&handler, row.type, row.poll) == row.setting)
  }

  @Test(arguments: cases) func aWrongLengthIsRefusedAndChangesNothing(_ row: ConfigurationCase) {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let before = Self.poll(&handler, row.type, row.poll)
    #expect(
      handler.handle(.ubx(UBXFrame(row.type, payload: row.badLength))) == [Self.nak(row.type)])
    #expect(Self.poll(&handler, row.type, row.poll) == before)
  }

  @Test(arguments: cases.filter { $0.outOfRange != nil })
  func aValueOutOfRangeIsRefusedAndChangesNothing(_ row: ConfigurationCase) {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let before = Self.poll(&handler, row.type, row.poll)
    let refused = handler.handle(.ubx(UBXFrame(row.type, payload: row.outOfRange ?? [])))
    #expect(refused == [Self.nak(row.type)])
    #expect(Self.poll(&handler, row.type, row.poll) == before)
  }

  @Test func anOlderShorterNMEAFormSetsTheFirstFieldsAndKeepsVersionOne() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgNMEA, payload: [0, 0x23, 8, 0]))).first == Self.ack(.cfgNMEA)
    )
    let value = Self.poll(&handler, .cfgNMEA)
    #expect(value?.count == 20)
    #expect(value?.prefix(4) == [0, 0x23, 8, 0])
    #expect(value?[11] == 1)
  }

  @Test func theFortyByteCFGPRTOfAnAutopilotIsAcknowledgedAndEachPortPollsBack() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let uart1 = Self.port(1, mode: UBXPortConfiguration.mode8N1, baud: 115_200, in: 0x01, out: 0x01)
    let usb = Self.port(3, mode: 0, baud: 0, in: 0x01, out: 0x01)
    let effects = handler.handle(.ubx(UBXFrame(.cfgPRT, payload: uart1 + usb)))
    var expectedOutput = Self.m8.defaultOutput
    expectedOutput.nmeaProtocolEnabled = false
    #expect(
      effects == [
        Self.ack(.cfgPRT), .setOutput(expectedOutput), .setBaud(try BytePacing(baud: 115_200)),
      ])
    #expect(Self.poll(&handler, .cfgPRT, [1]) == uart1)
    #expect(Self.poll(&handler, .cfgPRT) == uart1)
    #expect(Self.poll(&handler, .cfgPRT, [3]) == usb)
    #expect(Self.poll(&handler, .cfgPRT, [0])?.first == 0)
    #expect(handler.handle(.ubx(UBXFrame(.cfgPRT, payload: [7]))) == [Self.nak(.cfgPRT)])
  }

  @Test func cfgMSGKeepsARatePerPort() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let perPort = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1, 2, 0, 3, 4, 0])))
    #expect(perPort.first == Self.ack(.cfgMSG))
    #expect(handler.output.ubx[.navPVT] == 2)
    #expect(Self.poll(&handler, .cfgMSG, [0x01, 0x07]) == [0x01, 0x07, 1, 2, 0, 3, 4, 0])
    _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07, 5])))
    #expect(Self.poll(&handler, .cfgMSG, [0x01, 0x07]) == [0x01, 0x07, 1, 5, 0, 3, 4, 0])
    #expect(Self.poll(&handler, .cfgMSG, [0xF0, 0x00]) == [0xF0, 0x00, 0, 1, 0, 0, 0, 0])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x99, 1]))) == [Self.nak(.cfgMSG)])
  }

  @Test func cfgNAV5ChangesOnlyTheFieldsOfItsMask() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let factory = try #require(Self.poll(&handler, .cfgNAV5))
    var airborne = Self.zeros(36)
    airborne[0] = 0x01  // dyn only
    airborne[2] = 6  // airborne < 1 g
    airborne[3] = 1  // 2D only: not applied, its bit is clear
    airborne[12] = 15  // minElev: not applied
    #expect(handler.handle(.ubx(UBXFrame(.cfgNAV5, payload: airborne))).first == Self.ack(.cfgNAV5))
    var expected = factory
    expected[2] = 6
    #expect(Self.poll(&handler, .cfgNAV5) == expected)
    var wrongModel = airborne
    wrongModel[2] = 1
    #expect(handler.handle(.ubx(UBXFrame(.cfgNAV5, payload: wrongModel))) == [Self.nak(.cfgNAV5)])
    wrongModel[0] = 0x00  // the bad field is not applied: accepted, nothing changes
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgNAV5, payload: wrongModel))).first == Self.ack(.cfgNAV5))
    #expect(Self.poll(&handler, .cfgNAV5) == expected)
  }

  @Test func cfgGNSSKeepsUnlistedSystemsAndRefusesAFourthMajorSystem() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let galileoAndBeiDouOn: [UInt8] =
      [0, 0, 32, 2, 2, 4, 8, 0, 0x01, 0, 0x01, 0x01, 3, 8, 16, 0, 0x01, 0, 0x01, 0x01]
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: galileoAndBeiDouOn))) == [
        Self.nak(.cfgGNSS)
      ])
    let glonassOff: [UInt8] = [0, 0, 32, 1, 6, 8, 14, 0, 0x00, 0, 0x01, 0x01]
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: glonassOff))).first == Self.ack(.cfgGNSS))
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: galileoAndBeiDouOn))).first
        == Self.ack(.cfgGNSS))
    let polled = try #require(Self.poll(&handler, .cfgGNSS).flatMap(UBXGNSSConfiguration.init))
    #expect(polled.blocks.count == 7)
    #expect(polled.blocks.filter(\.isEnabled).map(\.gnssID).sorted() == [0, 1, 2, 3, 5])
    let majorsOff: [UInt8] =
      [0, 0, 32, 3] + [0, 8, 16, 0, 0, 0, 1, 1] + [2, 4, 8, 0, 0, 0, 1, 1]
      + [3, 8, 16, 0, 0, 0, 1, 1]
    #expect(handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: majorsOff))) == [Self.nak(.cfgGNSS)])
    let fewChannels: [UInt8] = [0, 0, 32, 1, 0, 2, 3, 0, 0x01, 0, 0x01, 0x01]
    #expect(handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: fewChannels))) == [Self.nak(.cfgGNSS)])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: [0, 0, 32, 2]))) == [Self.nak(.cfgGNSS)])
    #expect(Self.poll(&handler, .cfgGNSS).flatMap(UBXGNSSConfiguration.init) == polled)
  }

  @Test func cfgDATTakesAUserDatumAndReportsIt() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    #expect(Self.poll(&handler, .cfgDAT) == UBXDatum.wgs84.payload)
    var writer = UBXPayloadWriter()
    writer.unsigned((6_378_388.0).bitPattern, byteCount: 8)
    writer.unsigned((297.0).bitPattern, byteCount: 8)
    for value: Float in [-87, -98, -121, 0, 0, 0, 0] { writer.u4(value.bitPattern) }
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgDAT, payload: writer.bytes))).first == Self.ack(.cfgDAT))
    let reported = try #require(Self.poll(&handler, .cfgDAT))
    #expect(reported.count == 52)
    #expect(reported.prefix(2) == [0xFF, 0xFF])
    #expect(Array(reported[8...]) == writer.bytes)
    var tooSmall = writer.bytes
    tooSmall.replaceSubrange(0..<8, with: UBXPayloadWriter.double(6_000_000))
    #expect(handler.handle(.ubx(UBXFrame(.cfgDAT, payload: tooSmall))) == [Self.nak(.cfgDAT)])
  }

  @Test func theM8RefusesWhatOtherProductsHaveAndTheF9TheM8sPowerMessages() {
    var m8 = UbloxCommandHandler(profile: Self.m8)
    var f9 = UbloxCommandHandler(profile: Self.f9)
    for type in [UBXMessageType.cfgDGNSS, .cfgTMODE3, .cfgHNR, .cfgTMODE2] {
      #expect(m8.handle(.ubx(UBXFrame(type))) == [Self.nak(type)])
    }
    #expect(Self.poll(&f9, .cfgDGNSS) == [3, 0, 0, 0])
    #expect(f9.handle(.ubx(UBXFrame(.cfgPM2))) == [Self.nak(.cfgPM2)])
    #expect(Self.poll(&f9, .cfgNAVX5)?.prefix(2) == [2, 0])
    #expect(Self.poll(&f9, .cfgNAVX5)?.count == 40)
  }
}

extension UBXPayloadWriter {
  /// The 8 bytes of an `R8`.
  static func double(_ value: Double) -> [UInt8] {
    var writer = UBXPayloadWriter()
    writer.unsigned(value.bitPattern, byteCount: 8)
    return writer.bytes
  }
}
