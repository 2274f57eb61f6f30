import Simulation
import Testing
import UBX

@testable import Receiver

/// The F9P's legacy views under settings a client may get wrong or push to their limits: a fence
/// count beyond the blocks sent, CFG-RINV empty and full, CFG-TMODE3 in LLH with a negative
/// high-precision part, CFG-INF with one bad block, CFG-CFG save/load/clear and a reset, odd
/// lengths and random settings and key values (nothing may trap); the M8 keeps no keys.
@Suite struct UbloxLegacyKeyHostileTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames
  typealias Rules = UbloxLegacyKeyRulesTests

  @Test func geofenceCountBeyondItsBlocksIsRefused() {
    var handler = Rules.f9()
    let payload: [UInt8] = [0, 2, 1, 0, 0, 0, 3, 0] + [UInt8](repeating: 1, count: 12)
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgGEOFENCE, payload: payload))) == [Cases.nak(.cfgGEOFENCE)])
    #expect(Rules.key(&handler, "CFG-GEOFENCE-USE_FENCE2") == 0)
  }

  @Test func remoteInventoryEmptyAndFull() throws {
    var handler = Rules.f9()
    #expect(handler.handle(.ubx(UBXFrame(.cfgRINV, payload: [0x03]))) == [Cases.ack(.cfgRINV)])
    #expect(Cases.poll(&handler, .cfgRINV) == [0x03])
    let full = [0x01] + (0..<30).map { UInt8($0 + 0x41) }
    #expect(handler.handle(.ubx(UBXFrame(.cfgRINV, payload: full))) == [Cases.ack(.cfgRINV)])
    #expect(Cases.poll(&handler, .cfgRINV) == full)
    #expect(Rules.key(&handler, "CFG-RINV-DATA_SIZE") == 30)
  }

  @Test func timeModeLegacyLLHWithNegativeHighPrecision() throws {
    var handler = Rules.f9()
    var payload = [UInt8](repeating: 0, count: 40)
    payload[2] = 2
    payload[3] = 1
    payload.replaceSubrange(4..<8, with: [0x78, 0x56, 0x34, 0x12])
    payload[16] = 0xFB
    // Acknowledged, and the station now stands at a fixed position (`.setBase`).
    let effects = handler.handle(.ubx(UBXFrame(.cfgTMODE3, payload: payload)))
    #expect(effects.first == Cases.ack(.cfgTMODE3) && effects.count == 2, "\(effects)")
    #expect(Rules.key(&handler, "CFG-TMODE-LAT_HP") == 0xFB)
    #expect(Rules.key(&handler, "CFG-TMODE-POS_TYPE") == 1)
    #expect(Rules.key(&handler, "CFG-TMODE-ECEF_X") == 0)
    #expect(Cases.poll(&handler, .cfgTMODE3) == payload)
  }

  @Test func informationBlocksWithOneBadAreRefusedWhole() {
    var handler = Rules.f9()
    let good: [UInt8] = [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]
    let bad: [UInt8] = [5, 0, 0, 0, 1, 1, 1, 1, 1, 0]
    #expect(handler.handle(.ubx(UBXFrame(.cfgINF, payload: good + bad))) == [Cases.nak(.cfgINF)])
    #expect(Rules.key(&handler, "CFG-INFMSG-UBX_UART1") == 0)
  }

  @Test func saveChangeLoadRoundTripsLegacyAndKeys() throws {
    var handler = Rules.f9()
    var payload = [UInt8](repeating: 0, count: 40)
    payload[2] = 1
    payload.replaceSubrange(24..<28, with: [60, 0, 0, 0])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgTMODE3, payload: payload))) == [
        Cases.ack(.cfgTMODE3),
        .setBase(BaseSettings(mode: .surveyIn(minimumSeconds: 60, accuracyLimitMeters: 0))),
      ])
    let save = UBXFrame(.cfgCFG, payload: [0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x01])
    #expect(handler.handle(.ubx(save)).first == Cases.ack(.cfgCFG))
    #expect(
      handler.handle(.ubx(Frames.valset([("CFG-TMODE-MODE", 0)])))
        == [Cases.ack(.cfgVALSET), .setBase(BaseSettings())])
    #expect(Cases.poll(&handler, .cfgTMODE3)?[2] == 0)
    let load = UBXFrame(.cfgCFG, payload: [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0x01])
    #expect(handler.handle(.ubx(load)).first == Cases.ack(.cfgCFG))
    #expect(Cases.poll(&handler, .cfgTMODE3) == payload)
    #expect(Rules.key(&handler, "CFG-TMODE-MODE") == 1)
    let clear = UBXFrame(.cfgCFG, payload: [0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0x01])
    #expect(handler.handle(.ubx(clear)).first == Cases.ack(.cfgCFG))
    #expect(Cases.poll(&handler, .cfgTMODE3) == [UInt8](repeating: 0, count: 40))
  }

  @Test func hardwareResetForgetsUnsavedLegacySettings() {
    var handler = Rules.f9()
    let usb = Cases.poll(&handler, .cfgUSB) ?? []
    var changed = usb
    changed[0] = 0x34
    #expect(handler.handle(.ubx(UBXFrame(.cfgUSB, payload: changed))) == [Cases.ack(.cfgUSB)])
    #expect(Rules.key(&handler, "CFG-USB-VENDOR_ID") == 0x1534)
    _ = handler.handle(.ubx(UBXFrame(.cfgRST, payload: [0, 0, 0, 0])))
    #expect(Rules.key(&handler, "CFG-USB-VENDOR_ID") == 0x1546)
    #expect(Cases.poll(&handler, .cfgUSB) == usb)
  }

  @Test func m8StillTakesASixBitUARTCharacterAndHasNoKeys() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.m8)
    let port = UBXPortConfiguration(
      portID: 2, mode: 0x840, baud: 115_200, inProtocols: [.ubx], outProtocols: [.ubx])
    #expect(handler.handle(.ubx(port.frame)) == [Cases.ack(.cfgPRT)])
    #expect(Cases.poll(&handler, .cfgPRT, [2]) == port.frame.payload)
  }

  @Test func oddLengthsNeverTrap() {
    var handler = Rules.f9()
    let types: [UBXMessageType] = [
      .cfgPRT, .cfgINF, .cfgANT, .cfgDAT, .cfgDGNSS, .cfgGEOFENCE, .cfgITFM, .cfgLOGFILTER,
      .cfgNAVX5, .cfgODO, .cfgRATE, .cfgRINV, .cfgTMODE3, .cfgUSB, .cfgNAV5, .cfgSBAS,
    ]
    for type in types {
      for count in [0, 1, 2, 3, 5, 7, 9, 13, 19, 21, 33, 39, 41, 43, 45, 53, 107, 109, 200] {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xF1) }
        _ = handler.handle(.ubx(UBXFrame(type, payload: payload)))
        _ = Cases.poll(&handler, type)
      }
    }
  }

  @Test func randomLegacySettingsAndKeyValuesNeverCrashAPoll() {
    var handler = Rules.f9()
    var generator = FaultRandomNumberGenerator(seed: 20)
    let types = UbloxCommandHandler.legacyKeyFields.keys.sorted { $0.id < $1.id }
    let keys = UbloxCommandHandler.legacyKeyFields.values.flatMap { $0.map(\.key) }
    for _ in 0..<15 {
      let type = types[Int.random(in: 0..<types.count, using: &generator)]
      let count = Int.random(in: 0..<120, using: &generator)
      var payload = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if Bool.random(using: &generator), !payload.isEmpty {
        payload[0] = UInt8.random(in: 0...5, using: &generator)
      }
      _ = handler.handle(.ubx(UBXFrame(type, payload: payload)))
      let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
      let name = UbloxCommandHandler.catalogue.definition(of: UBXConfigurationKey(key))?.name ?? ""
      _ = handler.handle(.ubx(Frames.valset([(name, UInt64.random(in: 0...UInt64.max))])))
      _ = handler.handle(.ubx(Frames.valset([(name, UInt64.random(in: 0...300))])))
      for polled in types {
        for instance: UInt8 in 0...4 { _ = Cases.poll(&handler, polled, [instance]) }
        _ = Cases.poll(&handler, polled)
      }
    }
  }
}
