import Receiver
import Testing
import UBX

/// CFG-VALSET, VALGET and VALDEL of the ZED-F9P on its whole configuration database: layers,
/// wildcards and pages, transactions, unknown keys, and the items the emulator models.
@Suite struct UbloxConfigurationDatabaseTests {
  typealias Frames = UbloxConfigurationFrames
  static let f9 = UbloxCommandHandlerTests.f9

  static func ack(_ type: UBXMessageType) -> ReceiverEffect { UbloxCommandHandlerTests.ack(type) }
  static func nak(_ type: UBXMessageType) -> ReceiverEffect { UbloxCommandHandlerTests.nak(type) }

  /// The VALSETs an autopilot's u-blox 9 driver writes at start-up (ArduPilot's
  /// `AP_GPS_UBLOX` configuration list: UART1 framing and protocols, USB and I2C protocols,
  /// the platform model, the odometer, message rates on UART1 and USB).
  static let autopilotValsets: [[(String, UInt64)]] = [
    [
      ("CFG-UART1-STOPBITS", 1), ("CFG-UART1-DATABITS", 0), ("CFG-UART1-PARITY", 0),
      ("CFG-UART1INPROT-UBX", 1), ("CFG-UART1INPROT-NMEA", 0), ("CFG-UART1INPROT-RTCM3X", 1),
      ("CFG-UART1OUTPROT-UBX", 1), ("CFG-UART1OUTPROT-NMEA", 0),
      ("CFG-UART1OUTPROT-RTCM3X", 0),
    ],
    [
      ("CFG-USBINPROT-UBX", 1), ("CFG-USBINPROT-NMEA", 0), ("CFG-USBINPROT-RTCM3X", 1),
      ("CFG-USBOUTPROT-UBX", 1), ("CFG-USBOUTPROT-NMEA", 0), ("CFG-USBOUTPROT-RTCM3X", 0),
    ],
    [
      ("CFG-I2CINPROT-UBX", 0), ("CFG-I2CINPROT-NMEA", 0), ("CFG-I2COUTPROT-UBX", 0),
      ("CFG-I2COUTPROT-NMEA", 0),
    ],
    [("CFG-NAVSPG-DYNMODEL", 8), ("CFG-NAVSPG-FIXMODE", 3), ("CFG-NAVSPG-INFIL_MINELEV", 10)],
    [("CFG-ODO-USE_ODO", 1), ("CFG-ODO-USE_COG", 1), ("CFG-ODO-OUTLPVEL", 0)],
    [("CFG-MSGOUT-UBX_NAV_PVT_UART1", 1), ("CFG-MSGOUT-UBX_NAV_DOP_UART1", 1)],
    [("CFG-MSGOUT-UBX_NAV_HPPOSLLH_UART1", 1), ("CFG-MSGOUT-UBX_NAV_RELPOSNED_USB", 1)],
    [("CFG-MSGOUT-UBX_NAV_PVT_USB", 1), ("CFG-MSGOUT-UBX_RXM_RAWX_UART1", 1)],
    [("CFG-SIGNAL-GPS_ENA", 1), ("CFG-SIGNAL-GAL_ENA", 0), ("CFG-RATE-MEAS", 200)],
  ]

  /// Every one of the autopilot's VALSETs is acknowledged and takes effect.
  @Test func anAutopilotsStartUpValsetsAreAcknowledged() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    for values in Self.autopilotValsets {
      let effects = handler.handle(.ubx(Frames.valset(values)))
      #expect(effects.first == Self.ack(.cfgVALSET), "\(values.map(\.0))")
    }
    let readBack = handler.handle(
      .ubx(
        Frames.valget(names: [
          "CFG-NAVSPG-DYNMODEL", "CFG-ODO-USE_ODO", "CFG-UART1INPROT-NMEA",
          "CFG-MSGOUT-UBX_NAV_RELPOSNED_USB", "CFG-SIGNAL-GAL_ENA",
        ])))
    #expect(Frames.answer(readBack)?.map(\.value) == [8, 1, 0, 1, 0])
    #expect(handler.output.ubx[.navPVT] == 1 && handler.output.ubx[.navDOP] == 1)
    #expect(!handler.output.nmeaProtocolEnabled)
    #expect(handler.rate.measurementPeriodMilliseconds == 200)
  }

  /// ubxtool's `-z CFG-NAVSPG-DYNMODEL,4` and `-g CFG-SIGNAL-GPS_ENA`.
  @Test func ubxtoolsSetAndGetAreAnswered() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let set = handler.handle(.ubx(Frames.valset([("CFG-NAVSPG-DYNMODEL", 4)], layers: 7)))
    #expect(set == [Self.ack(.cfgVALSET)])
    let get = handler.handle(.ubx(Frames.valget(names: ["CFG-SIGNAL-GPS_ENA"])))
    #expect(Frames.value("CFG-SIGNAL-GPS_ENA", in: get) == 1)
    #expect(get.last == Self.ack(.cfgVALGET))
  }

  /// A group wildcard answers the whole group in table order, 64 pairs at most per answer,
  /// the rest from `position` on; a position past the end is refused.
  @Test func aWildcardAnswersItsGroupInPagesOfSixtyFour() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let group = try #require(
      Frames.catalogue.definitions(matching: UBXConfigurationKey(0x1091_FFFF)))
    #expect(group.count > 128)
    var received: [UBXConfigurationKey] = []
    var position: UInt16 = 0
    while Int(position) < group.count {
      let effects = handler.handle(.ubx(Frames.valget([0x1091_FFFF], position: position)))
      let page = try #require(Frames.answer(effects))
      #expect(page.count == min(64, group.count - Int(position)))
      received += page.map(\.key)
      position += 64
    }
    #expect(received == group.map(\.key))
    #expect(
      handler.handle(.ubx(Frames.valget([0x1091_FFFF], position: position)))
        == [Self.nak(.cfgVALGET)])
    let everything = handler.handle(.ubx(Frames.valget([0x0FFF_FFFF])))
    #expect(Frames.answer(everything)?.count == 64)
  }

  /// VALSET writes only the layers of its mask; BBR and flash answer only what was written to
  /// them; the default layer keeps the default; VALDEL removes from BBR or flash; a load
  /// (power-up) takes flash, then BBR over it.
  @Test func layersAreWrittenReadAndDeletedApart() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let model = "CFG-NAVSPG-DYNMODEL"
    #expect(
      handler.handle(.ubx(Frames.valset([(model, 4)], layers: 2))).first == Self.ack(.cfgVALSET))
    #expect(
      handler.handle(.ubx(Frames.valset([(model, 3)], layers: 4))).first == Self.ack(.cfgVALSET))
    let read = { (layer: UInt8, handler: inout UbloxCommandHandler) in
      Frames.value(model, in: handler.handle(.ubx(Frames.valget(names: [model], layer: layer))))
    }
    #expect(read(0, &handler) == 0)
    #expect(read(1, &handler) == 4)
    #expect(read(2, &handler) == 3)
    #expect(read(7, &handler) == 0)
    #expect(
      handler.handle(.ubx(Frames.valget(names: ["CFG-ODO-USE_ODO"], layer: 1)))
        == [Self.nak(.cfgVALGET)])
    #expect(handler.handle(.ubx(Frames.valget(names: [model], layer: 3))) == [Self.nak(.cfgVALGET)])
    _ = handler.loadStoredConfiguration()
    #expect(read(0, &handler) == 4)
    let delete = handler.handle(.ubx(Frames.valdel([0x1011_FFFF], layers: 2)))
    #expect(delete == [Self.ack(.cfgVALDEL)])
    #expect(read(1, &handler) == nil)
    #expect(read(2, &handler) == 3)
    _ = handler.loadStoredConfiguration()
    #expect(read(0, &handler) == 3)
    #expect(handler.handle(.ubx(Frames.valdel([0x2011_0021], layers: 1))) == [Self.nak(.cfgVALDEL)])
  }

  /// Begin, continue, apply: nothing changes before "apply", everything at it; a new "begin"
  /// drops the transaction under way; "continue" without one is refused; an "apply" whose
  /// result is impossible changes nothing; another CFG message (VALGET) or other layers cancel
  /// the transaction.
  @Test func transactionsApplyAtomicallyOrNotAtAll() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let model = "CFG-NAVSPG-DYNMODEL"
    let ramModel = { (handler: inout UbloxCommandHandler) in
      Frames.value(model, in: handler.handle(.ubx(Frames.valget(names: [model]))))
    }
    #expect(
      handler.handle(.ubx(Frames.valset([(model, 5)], transaction: 1))) == [Self.ack(.cfgVALSET)])
    #expect(
      handler.handle(.ubx(Frames.valset([("CFG-ODO-USE_ODO", 1)], transaction: 2)))
        == [Self.ack(.cfgVALSET)])
    #expect(handler.rate.measurementPeriodMilliseconds == 1000)
    let applied = handler.handle(.ubx(Frames.valset([("CFG-RATE-MEAS", 200)], transaction: 3)))
    #expect(applied == [Self.ack(.cfgVALSET), .setRate(try CadencePlan(rateHz: 5))])
    #expect(ramModel(&handler) == 5)

    _ = handler.handle(.ubx(Frames.valset([(model, 6)], transaction: 1)))
    _ = handler.handle(.ubx(Frames.valset([("CFG-ODO-USE_COG", 1)], transaction: 1)))
    #expect(handler.handle(.ubx(Frames.valset([], transaction: 3))) == [Self.ack(.cfgVALSET)])
    #expect(ramModel(&handler) == 5)
    let cog = handler.handle(.ubx(Frames.valget(names: ["CFG-ODO-USE_COG"])))
    #expect(Frames.value("CFG-ODO-USE_COG", in: cog) == 1)

    #expect(
      handler.handle(.ubx(Frames.valset([(model, 7)], transaction: 2))) == [Self.nak(.cfgVALSET)])
    _ = handler.handle(.ubx(Frames.valset([(model, 2)], transaction: 1)))
    let impossible = handler.handle(
      .ubx(Frames.valset([("CFG-UART1-BAUDRATE", 12_345)], transaction: 3)))
    #expect(impossible == [Self.nak(.cfgVALSET)])
    #expect(ramModel(&handler) == 5)
    #expect(handler.baud == Self.f9.defaultBaud)

    _ = handler.handle(.ubx(Frames.valset([(model, 2)], transaction: 1)))
    _ = handler.handle(.ubx(Frames.valget(names: [model])))
    #expect(handler.handle(.ubx(Frames.valset([], transaction: 3))) == [Self.nak(.cfgVALSET)])
    _ = handler.handle(.ubx(Frames.valset([(model, 2)], transaction: 1)))
    #expect(
      handler.handle(.ubx(Frames.valset([], layers: 2, transaction: 3))) == [Self.nak(.cfgVALSET)])
    #expect(ramModel(&handler) == 5)
  }

  /// A key the chip does not know makes the whole message refused, and so does a logical
  /// value other than 0 or 1; what came before it in the message is not applied.
  @Test func anUnknownKeyOrImpossibleValueRefusesTheWholeMessage() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    var payload = Frames.valset([("CFG-NAVSPG-DYNMODEL", 4)]).payload
    payload += [0xFE, 0x0F, 0x91, 0x20, 1]
    #expect(handler.handle(.ubx(UBXFrame(.cfgVALSET, payload: payload))) == [Self.nak(.cfgVALSET)])
    let model = handler.handle(.ubx(Frames.valget(names: ["CFG-NAVSPG-DYNMODEL"])))
    #expect(Frames.value("CFG-NAVSPG-DYNMODEL", in: model) == 0)
    #expect(
      handler.handle(.ubx(Frames.valset([("CFG-ODO-USE_ODO", 2)]))) == [Self.nak(.cfgVALSET)])
    #expect(
      handler.handle(.ubx(Frames.valget([0x2011_0021, 0x2091_0FFE]))) == [Self.nak(.cfgVALGET)])
    #expect(handler.handle(.ubx(Frames.valdel([0x2091_0FFE], layers: 6))) == [Self.nak(.cfgVALDEL)])
    #expect(handler.handle(.ubx(Frames.valget([0x10EE_FFFF]))) == [Self.nak(.cfgVALGET)])
  }

  /// The modelled items take effect (output, then baud after the acknowledgement) and the
  /// default layer reports the state the emulator started in.
  @Test func modelledItemsTakeEffectAndDefaultToThePowerUpState() throws {
    var handler = UbloxCommandHandler(profile: Self.f9, baud: 115_200)
    let effects = handler.handle(
      .ubx(Frames.valset([("CFG-MSGOUT-NMEA_ID_GSV_UART1", 0), ("CFG-UART1-BAUDRATE", 9600)])))
    var expected = Self.f9.defaultOutput(baud: 115_200)
    expected.nmea["GSV"] = 0
    #expect(
      effects == [
        Self.ack(.cfgVALSET), .setOutput(expected), .setBaud(try BytePacing(baud: 9600)),
      ])
    let defaults = handler.handle(
      .ubx(Frames.valget(names: ["CFG-UART1-BAUDRATE", "CFG-MSGOUT-NMEA_ID_GSV_UART1"], layer: 7)))
    #expect(Frames.answer(defaults)?.map(\.value) == [115_200, 1])
    let ram = handler.handle(.ubx(Frames.valget(names: ["CFG-UART1-BAUDRATE"])))
    #expect(Frames.value("CFG-UART1-BAUDRATE", in: ram) == 9600)
  }

  /// MON-HW2 switched on with the legacy CFG-MSG (as ArduPilot does) reads back from its
  /// `CFG-MSGOUT-UBX_MON_HW2_UART1` key, and the key switches it off.
  @Test func monHW2sRateIsItsMessageOutputKey() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let key = "CFG-MSGOUT-UBX_MON_HW2_UART1"
    let on = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x0A, 0x0B, 1])))
    #expect(on.first == Self.ack(.cfgMSG))
    #expect(handler.output.ubx[.monHW2] == 1)
    #expect(Frames.value(key, in: handler.handle(.ubx(Frames.valget(names: [key])))) == 1)
    _ = handler.handle(.ubx(Frames.valset([(key, 0)])))
    #expect(handler.output.ubx[.monHW2] ?? 0 == 0)
  }

  /// Legacy CFG-CFG: save writes what RAM changed to the layers, load brings it back after the
  /// RAM changed again, clear empties them.
  @Test func legacySaveLoadAndClearActOnTheLayers() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    _ = handler.handle(
      .ubx(Frames.valset([("CFG-NAVSPG-DYNMODEL", 8), ("CFG-RATE-MEAS", 500)])))
    #expect(
      handler.applyLegacyConfigurationCommand(
        clearMask: 0, saveMask: 0xFFFF, loadMask: 0, deviceMask: 0x02) == [])
    let flash = handler.handle(.ubx(Frames.valget([0x0FFF_FFFF], layer: 2)))
    #expect(Frames.answer(flash)?.count == 2)
    _ = handler.handle(.ubx(Frames.valset([("CFG-NAVSPG-DYNMODEL", 0), ("CFG-RATE-MEAS", 1000)])))
    let loaded = handler.applyLegacyConfigurationCommand(
      clearMask: 0, saveMask: 0, loadMask: 0xFFFF, deviceMask: nil)
    #expect(loaded == [.setRate(try CadencePlan(rateHz: 2))])
    let model = handler.handle(.ubx(Frames.valget(names: ["CFG-NAVSPG-DYNMODEL"])))
    #expect(Frames.value("CFG-NAVSPG-DYNMODEL", in: model) == 8)
    _ = handler.applyLegacyConfigurationCommand(
      clearMask: 0xFFFF, saveMask: 0, loadMask: 0, deviceMask: nil)
    #expect(handler.handle(.ubx(Frames.valget([0x0FFF_FFFF], layer: 2))) == [Self.nak(.cfgVALGET)])
  }
}
