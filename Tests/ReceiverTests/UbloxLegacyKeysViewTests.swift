import Simulation
import Testing
import UBX

@testable import Receiver

/// The F9P's legacy CFG-NAV5 and CFG-SBAS are views of their configuration keys (the ZED-F9P
/// interface description's table of legacy message fields): what one sets, the other reports.
@Suite struct UbloxLegacyKeysViewTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames
  typealias Storage = UbloxConfigurationStorageTests

  /// The RAM value of a key, read with VALGET.
  static func key(_ handler: inout UbloxCommandHandler, _ name: String) -> UInt64? {
    Frames.value(name, in: handler.handle(.ubx(Frames.valget(names: [name]))))
  }

  /// A CFG-NAV5 setting with `mask`, the fields of `set` (offset, bytes) in place.
  static func navigationEngine(mask: UInt16, _ set: [(Int, [UInt8])]) -> UBXFrame {
    var payload = [UInt8](repeating: 0, count: 36)
    payload[0] = UInt8(mask & 0xFF)
    payload[1] = UInt8(mask >> 8)
    for (offset, bytes) in set {
      payload.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    }
    return UBXFrame(.cfgNAV5, payload: payload)
  }

  @Test func aFreshF9PReportsTheKeysDefaultsInCFGNAV5() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let nav5 = try #require(Cases.poll(&handler, .cfgNAV5))
    // The F9's defaults, not the M8's: minimum elevation 10° (M8: 5).
    #expect(nav5[3] == 3, "fixMode: auto 2D/3D")
    #expect(nav5[12] == 10, "minElev")
    #expect(UInt16(nav5[20]) | UInt16(nav5[21]) << 8 == 350, "tAcc")
    #expect(nav5[23] == 60, "dgnssTimeout")
  }

  @Test func aDynamicModelSetByValsetIsTheOneCFGNAV5Reports() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let airborne = Frames.valset([("CFG-NAVSPG-DYNMODEL", 8)])
    #expect(handler.handle(.ubx(airborne)) == [Cases.ack(.cfgVALSET)])
    #expect(Storage.model(&handler) == 8)
  }

  @Test func cfgNAV5SetsTheKeysOfTheFieldsItsMaskApplies() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    // Automotive, and the elevation mask at -5° (a signed field), the other fields masked off.
    let setting = Self.navigationEngine(
      mask: 0x0003, [(2, [4]), (12, [0xFB]), (20, [0x10, 0x27])])
    #expect(handler.handle(.ubx(setting)) == [Cases.ack(.cfgNAV5)])
    #expect(Self.key(&handler, "CFG-NAVSPG-DYNMODEL") == 4)
    #expect(Self.key(&handler, "CFG-NAVSPG-INFIL_MINELEV") == 0xFB)
    #expect(Self.key(&handler, "CFG-NAVSPG-OUTFIL_TACC") == 350, "tAcc's mask bit was clear")
    // The altitude constraint (fixed altitude 123.45 m) through its own bit.
    let altitude = Self.navigationEngine(mask: 0x0004, [(3, [2]), (4, [0x39, 0x30, 0, 0])])
    #expect(handler.handle(.ubx(altitude)) == [Cases.ack(.cfgNAV5)])
    #expect(Self.key(&handler, "CFG-NAVSPG-FIXMODE") == 2)
    #expect(Self.key(&handler, "CFG-NAVSPG-CONSTR_ALT") == 12_345)
    #expect(Self.key(&handler, "CFG-NAVSPG-CONSTR_ALTVAR") == 0, "fixedAltVar is in the group")
  }

  /// The static hold (mask bit 6) is CFG-MOT-GNSSSPEED_THRS (cm/s) and GNSSDIST_THRS (m).
  @Test func cfgNAV5sStaticHoldIsTheMotionKeys() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let setting = Self.navigationEngine(mask: 0x0040, [(22, [50]), (28, [200, 0])])
    #expect(handler.handle(.ubx(setting)) == [Cases.ack(.cfgNAV5)])
    #expect(Self.key(&handler, "CFG-MOT-GNSSSPEED_THRS") == 50)
    #expect(Self.key(&handler, "CFG-MOT-GNSSDIST_THRS") == 200)
    let valset = Frames.valset([("CFG-MOT-GNSSSPEED_THRS", 20)])
    #expect(handler.handle(.ubx(valset)) == [Cases.ack(.cfgVALSET)])
    let polled = try #require(Cases.poll(&handler, .cfgNAV5))
    #expect(polled[22] == 20)
    #expect(polled[28] == 200 && polled[29] == 0)
  }

  /// CFG-MSG's rates on the ports beside UART1 are those ports' CFG-MSGOUT keys (the table
  /// maps each rate field to its port's key): they were kept apart, VALGET read 0 after a
  /// CFG-MSG set them and a CFG-MSG poll did not show a VALSET.
  @Test func cfgMSGsRatesOnOtherPortsAreTheirMSGOUTKeys() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let set = UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1, 0, 3, 4, 5, 0])
    #expect(handler.handle(.ubx(set)).first == Cases.ack(.cfgMSG))
    for (port, rate) in [("I2C", 1), ("UART1", 0), ("UART2", 3), ("USB", 4), ("SPI", 5)] {
      #expect(Self.key(&handler, "CFG-MSGOUT-UBX_NAV_PVT_\(port)") == UInt64(rate), "\(port)")
    }
    let valset = Frames.valset([
      ("CFG-MSGOUT-NMEA_ID_GGA_I2C", 7), ("CFG-MSGOUT-NMEA_ID_GGA_USB", 9),
    ])
    #expect(handler.handle(.ubx(valset)) == [Cases.ack(.cfgVALSET)])
    let replies = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0xF0, 0x00])))
    guard case .reply(let bytes)? = replies.first else {
      Issue.record("no reply: \(replies)")
      return
    }
    // GGA: I2C 7, USB 9, the others at the keys' default, 1 on every port of the F9P.
    #expect(Array(bytes.dropFirst(6).prefix(8)) == [0xF0, 0x00, 7, 1, 1, 9, 1, 0])
  }

  @Test func aModelTheKeyDoesNotTakeIsRefusedWithNothingApplied() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    // Model 10 is in protocol 18's range for CFG-NAV5 but no value of CFG-NAVSPG-DYNMODEL.
    let setting = Self.navigationEngine(mask: 0x0003, [(2, [10]), (12, [20])])
    #expect(handler.handle(.ubx(setting)) == [Cases.nak(.cfgNAV5)])
    #expect(Self.key(&handler, "CFG-NAVSPG-DYNMODEL") == 0)
    #expect(Self.key(&handler, "CFG-NAVSPG-INFIL_MINELEV") == 10)
  }

  @Test func aPolledCFGNAV5WrittenBackChangesNothing() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    #expect(handler.handle(.ubx(Frames.valset([("CFG-NAVSPG-OUTFIL_PDOP", 120)]))).count == 1)
    let polled = try #require(Cases.poll(&handler, .cfgNAV5))
    #expect(UInt16(polled[14]) | UInt16(polled[15]) << 8 == 120)
    #expect(handler.handle(.ubx(UBXFrame(.cfgNAV5, payload: polled))) == [Cases.ack(.cfgNAV5)])
    #expect(Cases.poll(&handler, .cfgNAV5) == polled)
  }

  @Test func cfgSBASIsTheViewOfTheSBASKeys() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let fresh = try #require(Cases.poll(&handler, .cfgSBAS))
    #expect(fresh[0] & 1 == 1, "enabled, as CFG-SIGNAL-SBAS_ENA")
    #expect(fresh[1] & 0x07 == 0x03, "ranging and corrections, not integrity")
    // Disabled, integrity only, EGNOS's PRN 123 and 136 and PRN 158 scanned.
    let scan1: UInt32 = 1 << (123 - 120) | 1 << (136 - 120)
    let payload: [UInt8] = [
      0, 0x04, 3, 1 << (158 - 152),
      UInt8(scan1 & 0xFF), UInt8(scan1 >> 8 & 0xFF), UInt8(scan1 >> 16 & 0xFF), UInt8(scan1 >> 24),
    ]
    // Disabling SBAS takes its satellites out of the sky.
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgSBAS, payload: payload)))
        == [Cases.ack(.cfgSBAS), .setTracking([.gps, .glonass, .galileo, .beidou], sbasPRNs: [])])
    #expect(Self.key(&handler, "CFG-SIGNAL-SBAS_ENA") == 0)
    #expect(Self.key(&handler, "CFG-SBAS-USE_RANGING") == 0)
    #expect(Self.key(&handler, "CFG-SBAS-USE_INTEGRITY") == 1)
    #expect(Self.key(&handler, "CFG-SBAS-PRNSCANMASK") == UInt64(scan1) | 1 << (158 - 120))
    // And back: a VALSET of the scan mask is what the poll's scanmode fields say.
    let mask: UInt64 = 1 << (131 - 120) | 1 << (153 - 120)
    #expect(handler.handle(.ubx(Frames.valset([("CFG-SBAS-PRNSCANMASK", mask)]))).count == 1)
    let polled = try #require(Cases.poll(&handler, .cfgSBAS))
    #expect(polled[3] == 1 << (153 - 152))
    #expect(polled[4...7] == [0, 1 << (131 - 128), 0, 0])
    #expect(polled[2] == 3, "maxSBAS has no key: stored as sent")
  }

  /// CFG-NMEA's version is CFG-NMEA-PROTVER (0x4B, 4.11, is 42), its satellite limit and
  /// talkers their keys: a client that polls it, changes a flag and writes it back leaves the
  /// F9P writing NMEA 4.11.
  @Test func cfgNMEAIsTheViewOfTheNMEAKeys() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    var polled = try #require(Cases.poll(&handler, .cfgNMEA))
    #expect(polled[1] == 0x4B, "4.11 from the factory")
    polled[0] |= 0x02  // filter: report invalid fixes
    // Acknowledged with no change of dialect.
    #expect(handler.handle(.ubx(UBXFrame(.cfgNMEA, payload: polled))) == [Cases.ack(.cfgNMEA)])
    #expect(Self.key(&handler, "CFG-NMEA-PROTVER") == 42)
    let valset = Frames.valset([("CFG-NMEA-PROTVER", 41), ("CFG-NMEA-MAINTALKERID", 1)])
    #expect(handler.handle(.ubx(valset)).contains(Cases.ack(.cfgVALSET)))
    let after = try #require(Cases.poll(&handler, .cfgNMEA))
    #expect(after[1] == 0x41 && after[9] == 1 && after[0] & 0x02 != 0)
  }

  @Test func theM8KeepsCFGNAV5AsSent() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.m8)
    #expect(handler.handle(.ubx(Storage.dynamicModel(7))) == [Cases.ack(.cfgNAV5)])
    #expect(Storage.model(&handler) == 7)
  }
}
