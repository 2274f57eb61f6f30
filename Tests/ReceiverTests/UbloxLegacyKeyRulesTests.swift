import Testing
import UBX

@testable import Receiver

/// The rules of the F9P's legacy views beyond field-for-key copies (`+LegacyKeys`,
/// `+LegacyKeyShapes`): the I2C and SPI ports' mode bits, values a key cannot hold, CFG-ANT's
/// `reconfig`, CFG-NAVX5's rollover 0, the fence count, CFG-TMODE3's choice of keys, CFG-DAT's
/// datum in use. The field-for-key copies are checked with pyubx2 in
/// `UbloxLegacyKeyOracleTests`.
@Suite struct UbloxLegacyKeyRulesTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames

  static func key(_ handler: inout UbloxCommandHandler, _ name: String) -> UInt64? {
    UbloxLegacyKeysViewTests.key(&handler, name)
  }

  static func f9() -> UbloxCommandHandler {
    UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
  }

  @Test func theI2CAndSPIPortsModeBitsAreTheirKeys() {
    var handler = Self.f9()
    // I2C at address 0x48 (mode 0x90), extended TX timeout; SPI mode 2 (CPOL 1, CPHA 0), 40
    // 0xFF bytes before it stops (ffCnt).
    let i2c = UBXPortConfiguration(
      portID: 0, mode: 0x90, baud: 0, inProtocols: [.ubx], outProtocols: [.ubx], flags: 0x02)
    let spi = UBXPortConfiguration(
      portID: 4, mode: 0x2804, baud: 0, inProtocols: [.nmea], outProtocols: [.nmea])
    let frame = UBXFrame(.cfgPRT, payload: i2c.frame.payload + spi.frame.payload)
    #expect(handler.handle(.ubx(frame)) == [Cases.ack(.cfgPRT)])
    #expect(Self.key(&handler, "CFG-I2C-ADDRESS") == 0x90)
    #expect(Self.key(&handler, "CFG-I2C-EXTENDEDTIMEOUT") == 1)
    #expect(Self.key(&handler, "CFG-I2CINPROT-NMEA") == 0)
    #expect(Self.key(&handler, "CFG-SPI-CPOLARITY") == 1)
    #expect(Self.key(&handler, "CFG-SPI-CPHASE") == 0)
    #expect(Self.key(&handler, "CFG-SPI-MAXFF") == 40)
    #expect(Self.key(&handler, "CFG-SPIINPROT-UBX") == 0)
    let set = Frames.valset([("CFG-SPI-MAXFF", 12), ("CFG-SPI-CPHASE", 1)])
    #expect(handler.handle(.ubx(set)) == [Cases.ack(.cfgVALSET)])
    let reported = Cases.poll(&handler, .cfgPRT, [4]).flatMap(UBXPortConfiguration.init(payload:))
    #expect(reported?.mode == 0x0C06)
  }

  @Test func aUARTModeNoKeyHoldsIsRefusedWhole() {
    var handler = Self.f9()
    // 6 data bits (charLen 1): CFG-UART2-DATABITS takes 8 and 7 only.
    let port = UBXPortConfiguration(
      portID: 2, mode: 0x840, baud: 115_200, inProtocols: [.ubx], outProtocols: [.ubx])
    #expect(handler.handle(.ubx(port.frame)) == [Cases.nak(.cfgPRT)])
    #expect(Self.key(&handler, "CFG-UART2-BAUDRATE") == 38_400, "nothing applied")
  }

  @Test func antennaPinsChangeOnlyWithReconfig() {
    var handler = Self.f9()
    // Flags svcs and ocd; pins 5, 6, 7 without reconfig, then with it.
    let pins: UInt16 = 5 | 6 << 5 | 7 << 10
    let without = UBXFrame(.cfgANT, payload: [0x05, 0, UInt8(pins & 0xFF), UInt8(pins >> 8)])
    #expect(handler.handle(.ubx(without)) == [Cases.ack(.cfgANT)])
    #expect(Self.key(&handler, "CFG-HW-ANT_CFG_OPENDET") == 1)
    #expect(Self.key(&handler, "CFG-HW-ANT_SUP_SWITCH_PIN") == 16)
    let with = UBXFrame(
      .cfgANT, payload: [0x05, 0, UInt8(pins & 0xFF), UInt8(pins >> 8) | 0x80])
    #expect(handler.handle(.ubx(with)) == [Cases.ack(.cfgANT)])
    #expect(Self.key(&handler, "CFG-HW-ANT_SUP_SWITCH_PIN") == 5)
    #expect(Self.key(&handler, "CFG-HW-ANT_SUP_OPEN_PIN") == 7)
  }

  @Test func navigationExpertRolloverZeroIsTheDefault() {
    var handler = Self.f9()
    #expect(handler.handle(.ubx(Frames.valset([("CFG-NAVSPG-WKNROLLOVER", 2100)]))).count == 1)
    var payload = [UInt8](repeating: 0, count: 40)
    payload[0] = 2
    payload[3] = 0x02  // mask1 bit 9: wknRoll; wknRollover 0
    #expect(handler.handle(.ubx(UBXFrame(.cfgNAVX5, payload: payload))) == [Cases.ack(.cfgNAVX5)])
    #expect(Self.key(&handler, "CFG-NAVSPG-WKNROLLOVER") == 2208)
    payload[0] = 3
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgNAVX5, payload: payload))) == [Cases.nak(.cfgNAVX5)],
      "version 2 only")
  }

  @Test func theFencesInUseGiveTheLengthOfCFGGEOFENCE() throws {
    var handler = Self.f9()
    var payload: [UInt8] = [0, 2, 1, 0, 0, 0, 3, 0]
    for fence in 0..<2 { payload += [UInt8](repeating: UInt8(fence + 1), count: 12) }
    #expect(handler.handle(.ubx(UBXFrame(.cfgGEOFENCE, payload: payload))).count == 1)
    #expect(try #require(Cases.poll(&handler, .cfgGEOFENCE)) == payload)
    let dropSecond = Frames.valset([("CFG-GEOFENCE-USE_FENCE2", 0)])
    #expect(handler.handle(.ubx(dropSecond)) == [Cases.ack(.cfgVALSET)])
    let one = try #require(Cases.poll(&handler, .cfgGEOFENCE))
    #expect(one.count == 20)
    #expect(one[1] == 1)
    #expect(Array(one[8...]) == [UInt8](repeating: 1, count: 12))
    let none = UBXFrame(.cfgGEOFENCE, payload: [0, 0, 1, 0, 0, 0, 3, 0])
    #expect(handler.handle(.ubx(none)) == [Cases.ack(.cfgGEOFENCE)])
    #expect(Self.key(&handler, "CFG-GEOFENCE-USE_FENCE1") == 0)
    #expect(Cases.poll(&handler, .cfgGEOFENCE)?.count == 8)
  }

  @Test func timeModeFlagsChooseECEFOrLLHKeys() throws {
    var handler = Self.f9()
    let set = Frames.valset([
      ("CFG-TMODE-MODE", 2), ("CFG-TMODE-POS_TYPE", 1), ("CFG-TMODE-LAT", 0x1234_5678),
      ("CFG-TMODE-ECEF_X", 0x0ABC_DEF0), ("CFG-TMODE-LAT_HP", 0xF6),
    ])
    let effects = handler.handle(.ubx(set))
    #expect(
      effects.first == Cases.ack(.cfgVALSET) && effects.count == 2, "ack, setBase: \(effects)")
    let llh = try #require(Cases.poll(&handler, .cfgTMODE3))
    #expect(Array(llh[2...7]) == [2, 1, 0x78, 0x56, 0x34, 0x12])
    #expect(llh[16] == 0xF6)
    // The fixed position moves to the ECEF keys': acknowledged, and `.setBase`.
    #expect(handler.handle(.ubx(Frames.valset([("CFG-TMODE-POS_TYPE", 0)]))).count == 2)
    let ecef = try #require(Cases.poll(&handler, .cfgTMODE3))
    #expect(Array(ecef[2...7]) == [2, 0, 0xF0, 0xDE, 0xBC, 0x0A])
    #expect(ecef[16] == 0)
  }

  @Test func aDatumOutOfUseIsReportedAsWGS84() throws {
    var handler = Self.f9()
    let user = Frames.valset([
      ("CFG-NAVSPG-USE_USRDAT", 1), ("CFG-NAVSPG-USRDAT_MAJA", Double(6_378_388).bitPattern),
    ])
    #expect(handler.handle(.ubx(user)) == [Cases.ack(.cfgVALSET)])
    let reported = try #require(Cases.poll(&handler, .cfgDAT))
    #expect(Array(reported.prefix(8)) == [0xFF, 0xFF] + Array("USER".utf8) + [0, 0])
    #expect(Array(reported[8..<16]) == UBXPayloadWriter.double(6_378_388))
    #expect(handler.handle(.ubx(Frames.valset([("CFG-NAVSPG-USE_USRDAT", 0)]))).count == 1)
    #expect(Cases.poll(&handler, .cfgDAT) == UBXDatum.wgs84.payload)
  }

  @Test func remoteInventoryDataIsItsChunksUpToItsSize() throws {
    var handler = Self.f9()
    let data = Array("rig-7 antenna B".utf8)
    #expect(handler.handle(.ubx(UBXFrame(.cfgRINV, payload: [0x01] + data))).count == 1)
    #expect(Self.key(&handler, "CFG-RINV-DATA_SIZE") == UInt64(data.count))
    #expect(Self.key(&handler, "CFG-RINV-CHUNK1") == 0x0042_2061_6E6E_6574)
    #expect(try #require(Cases.poll(&handler, .cfgRINV)) == [0x01] + data)
  }
}
