import Testing
import UBX

@testable import Receiver

/// A state file's item of the right form whose value the chip does not take: left out with a
/// line saying so, the chip on its default for it, the other items loaded.
@Suite struct UbloxStoredValueRefusalTests {
  /// VALGET frames by item name, and their answers.
  typealias Frames = UbloxConfigurationFrames

  /// `handler` powered up from a state of `lines` (line 1 the header, then these from line 2).
  static func powerUp(_ handler: inout UbloxCommandHandler, _ lines: [String]) throws
    -> [ReceiverEffect]
  {
    let text = ([ChipState.header(profileName: handler.profile.name)] + lines).joined(
      separator: "\n")
    return try handler.powerUp(
      restoring: ChipState(text: text, profileName: handler.profile.name))
  }

  @Test func anF9PItemOutOfItsRangeIsLeftOutAndNamed() throws {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    // CFG-NAVSPG-DYNMODEL 99, then CFG-RATE-MEAS 200 ms, which loads.
    let effects = try Self.powerUp(&handler, ["flash 20110021 63", "flash 30210001 c800"])
    #expect(effects.contains(.setRate(try CadencePlan(rateHz: 5))))
    #expect(
      handler.takeRefusedItems() == [
        ChipStateError(
          line: 2,
          "item '20110021' (CFG-NAVSPG-DYNMODEL): value 99 is not one the chip takes; "
            + "it runs on its default")
      ])
    #expect(handler.takeRefusedItems().isEmpty, "taken")
    let readBack = handler.handle(.ubx(Frames.valget(names: ["CFG-NAVSPG-DYNMODEL"])))
    #expect(Frames.answer(readBack)?.map(\.value) == [0])
    #expect(handler.nonVolatileState.records.map(\.item) == ["30210001"])
  }

  @Test func anM8RateItCannotRunIsLeftOutAndNamed() throws {
    var handler = UbloxCommandHandler(profile: .ubloxM8)
    // CFG-RATE of 10 ms: 100 Hz.
    let effects = try Self.powerUp(&handler, ["flash 06-08/0000 0a0001000100"])
    #expect(effects.isEmpty)
    #expect(handler.rate.measurementPeriodMilliseconds == 1000)
    let refused = handler.takeRefusedItems()
    #expect(refused.map(\.line) == [2])
    #expect(
      refused.first?.message.hasPrefix("item '06-08/0000': a rate the chip cannot run") == true)
  }
}
