import Testing
import UBX

@testable import Receiver

/// A u-blox chip's flash and battery-backed RAM as a state file's records: what a save writes,
/// and a power-up from them in a new handler (the next run).
@Suite struct UbloxNonVolatileStateTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames
  static let m8 = UbloxCommandHandlerTests.m8
  static let f9 = UbloxCommandHandlerTests.f9
  static let fiveHertz = UBXNavigationRate(
    measurementPeriodMilliseconds: 200, measurementsPerEpoch: 1)
  /// Every section the receiver description defines, as `ubxtool -p SAVE` saves them.
  static let everySection = UBXConfigurationSections(rawValue: 0x1F1F)

  /// A new chip of the same profile powered up from `handler`'s memory, through the text.
  static func nextRun(of handler: UbloxCommandHandler) throws -> (
    UbloxCommandHandler, [ReceiverEffect]
  ) {
    var next = UbloxCommandHandler(profile: handler.profile)
    let text = handler.nonVolatileState.text
    let effects = try next.powerUp(
      restoring: ChipState(text: text, profileName: handler.profile.name))
    return (next, effects)
  }

  @Test func anM8SavedAtFiveHertzPowersUpAtFiveHertz() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(Self.fiveHertz.frame))
    #expect(handler.nonVolatileWrites == 0)
    #expect(handler.nonVolatileState.records.isEmpty)
    _ = handler.handle(.ubx(UBXStorageCommand(save: Self.everySection).frame))
    #expect(handler.nonVolatileWrites == 1)
    let (next, effects) = try Self.nextRun(of: handler)
    var restored = next
    #expect(effects == [.setRate(try CadencePlan(rateHz: 5))])
    #expect(Cases.poll(&restored, .cfgRATE) == Self.fiveHertz.frame.payload)
    #expect(restored.nonVolatileState.text == handler.nonVolatileState.text)
  }

  @Test func aSettingNotSavedIsNotInTheNextRun() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(UBXStorageCommand(save: Self.everySection, devices: .flash).frame))
    _ = handler.handle(.ubx(Self.fiveHertz.frame))
    let (next, effects) = try Self.nextRun(of: handler)
    #expect(effects.isEmpty)
    #expect(next.rate.measurementPeriodMilliseconds == 1000)
    #expect(handler.nonVolatileState.records.allSatisfy { $0.layer == .flash })
  }

  @Test func aMessageTurnedOffAndSavedStaysOff() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    _ = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0xF0, 0x03, 0])))  // GSV off
    _ = handler.handle(.ubx(UBXStorageCommand(save: Self.everySection).frame))
    let (next, _) = try Self.nextRun(of: handler)
    #expect(next.output.nmea["GSV"] ?? 0 == 0)
    #expect(next.output.nmea["GGA"] == 1)
  }

  @Test func anF9ValsetToFlashOnlyChangesTheNextRun() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let toFlash = Frames.valset([("CFG-RATE-MEAS", 200)], layers: 4)
    #expect(handler.handle(.ubx(toFlash)) == [Cases.ack(.cfgVALSET)])
    #expect(handler.nonVolatileWrites == 1)
    #expect(handler.rate.measurementPeriodMilliseconds == 1000)
    #expect(handler.nonVolatileState.records.map(\.item) == ["30210001"])
    #expect(handler.nonVolatileState.records.map(\.value) == [[0xC8, 0x00]])
    var (next, effects) = try Self.nextRun(of: handler)
    #expect(effects == [.setRate(try CadencePlan(rateHz: 5))])
    #expect(Cases.poll(&next, .cfgRATE) == Self.fiveHertz.frame.payload)
    let flash = next.handle(.ubx(Frames.valget(names: ["CFG-RATE-MEAS"], layer: 2)))
    #expect(Frames.answer(flash)?.map(\.value) == [200])
  }

  @Test func writesToRAMAndPollsAreNotSaves() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    _ = handler.handle(.ubx(Frames.valset([("CFG-RATE-MEAS", 200)], layers: 1)))
    _ = handler.handle(.ubx(UBXFrame(.cfgRATE)))
    _ = handler.handle(.ubx(UBXStorageCommand(load: Self.everySection).frame))
    #expect(handler.nonVolatileWrites == 0)
    _ = handler.handle(
      .ubx(Frames.valdel([UBXConfigurationKey.rateMeasurement.rawValue], layers: 4)))
    #expect(handler.nonVolatileWrites == 1)
  }

  struct BadRecord: CustomTestStringConvertible, Sendable {
    var profile: ReceiverProfile
    var line: String
    var message: String
    var testDescription: String { message }
  }

  static let badRecords: [BadRecord] = [
    BadRecord(
      profile: m8, line: "flash 06-08/0000 c8000100",
      message: "item '06-08/0000': 4 bytes at instance 0 (expected 6 at instance 0)"),
    BadRecord(
      profile: m8, line: "flash 06-01/f000 00",
      message: "item '06-01/f000': 1 bytes (expected 6, a rate for each port)"),
    BadRecord(
      profile: m8, line: "flash 06-04/0000 00000000",
      message: "item '06-04/0000': CFG-RST is not a message this chip stores"),
    BadRecord(
      profile: m8, line: "flash 06-00/0007 07000000c008000080250000070003000000",
      message: "item '06-00/0007': CFG-PRT cannot be 18 bytes long"),
    BadRecord(
      profile: m8, line: "flash 30210001 c800",
      message: "item '30210001' (expected a CFG message and instance, CC-II/NNNN)"),
    BadRecord(
      profile: f9, line: "bbr 30210001 c8",
      message: "item '30210001' (CFG-RATE-MEAS): expected a value of type U2, 2 bytes"),
    BadRecord(
      profile: f9, line: "bbr 30ff0001 c800",
      message: "item '30ff0001': not a configuration key of this chip"),
  ]

  @Test(arguments: badRecords) func aRecordTheChipCannotHoldIsRefusedAtItsLine(
    _ bad: BadRecord
  ) throws {
    var handler = UbloxCommandHandler(profile: bad.profile)
    let text = ChipState.header(profileName: bad.profile.name) + "\n# a comment\n" + bad.line
    let state = try ChipState(text: text, profileName: bad.profile.name)
    #expect(throws: ChipStateError(line: 3, bad.message)) {
      try handler.powerUp(restoring: state)
    }
  }
}
