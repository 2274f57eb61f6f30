import Testing
import UBX

@testable import Receiver

/// What the F9P's BBR and flash hold is checked as the power-up that loads it: a VALSET to
/// those layers alone is refused for values the chip could not run, and a load (CFG-RST, a
/// state file) leaves out, with a warning each, what it cannot take and applies the rest.
@Suite struct UbloxStoredLayerValidityTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames
  static let f9 = UbloxCommandHandlerTests.f9

  /// A hardware reset that keeps the ephemerides, as ubxtool's `-p RESET` sends it.
  static let hardwareReset = UBXResetCommand(clearedData: 0, mode: .hardwareImmediately).frame

  /// The RAM value of a named item.
  static func ram(_ handler: inout UbloxCommandHandler, _ name: String) -> UInt64? {
    Frames.value(name, in: handler.handle(.ubx(Frames.valget(names: [name]))))
  }

  @Test(arguments: [
    ("CFG-SIGNAL-GPS_L1CA_ENA", UInt64(0), UInt8(2)), ("CFG-RATE-MEAS", 25, 2),
    ("CFG-UART1-BAUDRATE", 12345, 4), ("CFG-SIGNAL-GPS_L1CA_ENA", 0, 6),
  ])
  func aStoredValueThePowerUpCouldNotRunIsRefused(name: String, value: UInt64, layers: UInt8) {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let set = Frames.valset([(name, value), ("CFG-MSGOUT-UBX_NAV_SIG_UART1", 1)], layers: layers)
    #expect(handler.handle(.ubx(set)) == [Cases.nak(.cfgVALSET)])
    #expect(handler.nonVolatileWrites == 0)
    #expect(handler.nonVolatileState.records.isEmpty)
  }

  @Test func aRateTheEmulatorCannotRunIsLeftOutOfAPowerUpAndTheRestApplied() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    // Flash: CFG-RATE-MEAS 25 ms (40 Hz), NAV-SIG on UART1 every epoch.
    let effects = try UbloxStoredValueRefusalTests.powerUp(
      &handler, ["flash 30210001 1900", "flash 20910346 01"])
    #expect(handler.rate.measurementPeriodMilliseconds == 1000)
    #expect(handler.output.ubx[.navSIG] == 1)
    #expect(effects.contains { if case .setOutput = $0 { true } else { false } })
    #expect(
      handler.takeRefusedItems() == [
        ChipStateError(
          line: nil,
          "item '30210001' (CFG-RATE-MEAS): value 25 is not one the emulator can run; "
            + "it runs on 1000")
      ])
  }

  @Test func layersThatPassAloneButNotTogetherLoadTheSystemsDefaultSignals() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let gpsOff = [("CFG-SIGNAL-GPS_L1CA_ENA", UInt64(0)), ("CFG-SIGNAL-GPS_L2C_ENA", 0)]
    let toFlash = Frames.valset(gpsOff + [("CFG-SIGNAL-GPS_ENA", 0)], layers: 4)
    #expect(handler.handle(.ubx(toFlash)) == [Cases.ack(.cfgVALSET)])
    let toBBR = Frames.valset([("CFG-SIGNAL-GPS_ENA", 1)], layers: 2)
    #expect(handler.handle(.ubx(toBBR)) == [Cases.ack(.cfgVALSET)])
    _ = handler.handle(.ubx(Self.hardwareReset))
    #expect(Self.ram(&handler, "CFG-SIGNAL-GPS_ENA") == 1)
    #expect(Self.ram(&handler, "CFG-SIGNAL-GPS_L1CA_ENA") == 1)
    #expect(Self.ram(&handler, "CFG-SIGNAL-GPS_L2C_ENA") == 1)
    #expect(
      handler.takeRefusedItems() == [
        ChipStateError(
          line: nil,
          "the stored CFG-SIGNAL-GPS_* values are a combination of signals the chip cannot "
            + "track; it runs on their defaults")
      ])
    let unrelated = Frames.valset([("CFG-NAVSPG-DYNMODEL", 4)])
    #expect(handler.handle(.ubx(unrelated)) == [Cases.ack(.cfgVALSET)])
  }

  @Test func aRefusedBBRValueSaysTheFlashValueIsUsed() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    _ = try UbloxStoredValueRefusalTests.powerUp(
      &handler, ["bbr 20110021 63", "flash 20110021 04"])
    #expect(
      handler.takeRefusedItems() == [
        ChipStateError(
          line: 2,
          "item '20110021' (CFG-NAVSPG-DYNMODEL): value 99 is not one the chip takes; "
            + "it runs on its flash value 4")
      ])
    #expect(Self.ram(&handler, "CFG-NAVSPG-DYNMODEL") == 4)
  }
}
