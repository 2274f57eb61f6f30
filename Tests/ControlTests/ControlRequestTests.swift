import Control
import Testing

@Suite struct ControlRequestTests {
  @Test func aRequestNamesItsCommand() {
    #expect(ControlRequest.status.command == "status")
  }
}
