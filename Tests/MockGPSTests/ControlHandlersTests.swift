import Control
import Testing

@testable import MockGPS

/// Every command of the table has its handler, and no handler is left of a command that is gone.
@Suite struct ControlHandlersTests {
  @Test func everyCommandOfTheTableHasAHandlerAndNothingElseHasOne() {
    #expect(Set(Emulator.controlHandlers.keys) == Set(ControlCommand.names))
  }
}
