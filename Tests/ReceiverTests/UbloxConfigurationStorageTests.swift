import Testing
import UBX

@testable import Receiver

/// CFG-CFG's layers and CFG-RST's restarts.
@Suite struct UbloxConfigurationStorageTests {
  static let m8 = UbloxCommandHandlerTests.m8
  typealias Cases = UbloxConfigurationTests

  static let navigationAndPorts: UBXConfigurationSections = [.navigation, .ioPort]

  /// CFG-NAV5 setting only the dynamic model.
  static func dynamicModel(_ model: UInt8) -> UBXFrame {
    var payload = [UInt8](repeating: 0, count: 36)
    payload[0] = 0x01
    payload[2] = model
    return UBXFrame(.cfgNAV5, payload: payload)
  }

  static func model(_ handler: inout UbloxCommandHandler) -> UInt8? {
    Cases.poll(&handler, .cfgNAV5)?[2]
  }

  static func uart1(baud: Int) -> UBXFrame {
    UBXFrame(
      .cfgPRT,
      payload: Cases.port(1, mode: UBXPortConfiguration.mode8N1, baud: baud, in: 0x07, out: 0x03))
  }

  @Test func saveThenLoadBringsBackTheSavedSectionsWithTheirEffects() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(Self.dynamicModel(4)))
    _ = handler.handle(.ubx(Self.uart1(baud: 38_400)))
    let save = UBXStorageCommand(save: Self.navigationAndPorts, devices: .batteryBackedRAM)
    #expect(handler.handle(.ubx(save.frame)) == [Cases.ack(.cfgCFG)])
    _ = handler.handle(.ubx(Self.dynamicModel(7)))
    _ = handler.handle(.ubx(Self.uart1(baud: 115_200)))
    #expect(Self.model(&handler) == 7)
    let load = UBXStorageCommand(load: Self.navigationAndPorts, devices: .batteryBackedRAM)
    #expect(
      handler.handle(.ubx(load.frame)) == [
        Cases.ack(.cfgCFG), .setBaud(try BytePacing(baud: 38_400)),
      ])
    #expect(Self.model(&handler) == 4)
    #expect(handler.baud == 38_400)
  }

  @Test func aLoadOfSectionsNotSavedChangesNothingSaved() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(Self.dynamicModel(4)))
    _ = handler.handle(.ubx(UBXStorageCommand(save: .navigation).frame))
    _ = handler.handle(.ubx(UBXFrame(.cfgANT, payload: [0x1A, 0x00, 0xF0, 0xB9])))
    _ = handler.handle(.ubx(Self.dynamicModel(6)))
    _ = handler.handle(.ubx(UBXStorageCommand(load: .antenna).frame))
    #expect(Cases.poll(&handler, .cfgANT) == [0x1B, 0x00, 0xF0, 0xB9])
    #expect(Self.model(&handler) == 6)
  }

  @Test func clearReturnsTheLayerToTheDefaultsAndALoadThenRestoresThem() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(Self.dynamicModel(4)))
    _ = handler.handle(.ubx(UBXStorageCommand(save: .navigation).frame))
    let clearAndLoad = UBXStorageCommand(clear: .navigation, load: .navigation)
    #expect(handler.handle(.ubx(clearAndLoad.frame)) == [Cases.ack(.cfgCFG)])
    #expect(Self.model(&handler) == 0)
  }

  @Test func aCFGCFGOfAnotherLengthIsRefused() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    #expect(handler.handle(.ubx(UBXFrame(.cfgCFG, payload: [0, 0, 0, 0]))) == [Cases.nak(.cfgCFG)])
    #expect(handler.handle(.ubx(UBXFrame(.cfgCFG))) == [Cases.nak(.cfgCFG)])
    let twelve = UBXFrame(.cfgCFG, payload: [UInt8](repeating: 0, count: 12))
    #expect(handler.handle(.ubx(twelve)) == [Cases.ack(.cfgCFG)])
  }

  struct StartCase: CustomTestStringConvertible, Sendable {
    var mask: UInt16
    var start: ReceiverRestart.Start
    var testDescription: String { "navBbrMask \(mask)" }
  }

  @Test(
    arguments: [
      StartCase(mask: 0x0000, start: .hot), StartCase(mask: 0x0001, start: .warm),
      StartCase(mask: 0xFFFF, start: .cold), StartCase(mask: 0x0003, start: .cold),
      StartCase(mask: 0x0010, start: .warm),
    ])
  func aResetStartsAsItsMaskSaysWithoutAnAcknowledgement(_ row: StartCase) {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let reset = UBXResetCommand(clearedData: row.mask, mode: .gnssOnly)
    #expect(
      handler.handle(.ubx(reset.frame)) == [
        .restart(ReceiverRestart(start: row.start, powersUp: false))
      ])
  }

  @Test func aHardwareResetPowersUpWithWhatBatteryBackedRAMHolds() throws {
    for mode in [UBXResetCommand.Mode.hardwareImmediately, .software, .hardwareAfterShutdown] {
      var handler = UbloxCommandHandler(profile: Self.m8)
      _ = handler.handle(.ubx(Self.dynamicModel(4)))
      _ = handler.handle(.ubx(UBXStorageCommand(save: .navigation).frame))
      _ = handler.handle(.ubx(Self.dynamicModel(8)))
      _ = handler.handle(.ubx(Self.uart1(baud: 115_200)))
      _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0xF0, 0x03, 0])))
      let reset = UBXResetCommand(clearedData: 0xFFFF, mode: mode)
      #expect(
        handler.handle(.ubx(reset.frame)) == [
          .restart(
            ReceiverRestart(
              start: .cold, powersUp: true, cutsOutput: mode == .hardwareImmediately)),
          .setOutput(Self.m8.defaultOutput), .setBaud(.baud9600),
        ], "\(mode)")
      #expect(Self.model(&handler) == 4)
      #expect(handler.baud == 9600)
    }
  }

  @Test func aGNSSOnlyResetKeepsTheConfiguration() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(Self.dynamicModel(8)))
    let reset = UBXResetCommand(clearedData: 0x0001, mode: .gnssOnly)
    #expect(
      handler.handle(.ubx(reset.frame)) == [
        .restart(ReceiverRestart(start: .warm, powersUp: false))
      ])
    #expect(Self.model(&handler) == 8)
  }

  @Test func aGNSSStopSilencesTheOutputUntilTheStart() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    var silent = Self.m8.defaultOutput
    silent.nmeaProtocolEnabled = false
    silent.ubxProtocolEnabled = false
    let stop = UBXResetCommand(clearedData: 0, mode: .gnssStop)
    #expect(handler.handle(.ubx(stop.frame)) == [.setOutput(silent)])
    #expect(handler.handle(.ubx(stop.frame)) == [])
    let pvtOn = UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1])
    #expect(handler.handle(.ubx(pvtOn)) == [Cases.ack(.cfgMSG)])
    let start = UBXResetCommand(clearedData: 0, mode: .gnssStart)
    #expect(
      handler.handle(.ubx(start.frame)) == [
        .restart(ReceiverRestart(start: .hot, powersUp: false)), .setOutput(handler.output),
      ])
    #expect(handler.output.ubx[.navPVT] == 1)
  }

  @Test func aResetOfAnotherLengthIsRefusedAndAnUndefinedModeIgnored() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    #expect(handler.handle(.ubx(UBXFrame(.cfgRST, payload: [0, 0]))) == [Cases.nak(.cfgRST)])
    #expect(handler.handle(.ubx(UBXFrame(.cfgRST, payload: [0, 0, 0x03, 0]))) == [])
  }
}
