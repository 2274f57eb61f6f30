import Receiver
import Testing
import UBX

/// CFG-VALGET and CFG-VALDEL whose payload is not a 4-byte header and whole 4-byte keys: NAK'd
/// and noted as input of a wrong length, as the CFG messages of a fixed length are.
@Suite struct UbloxKeyListLengthTests {
  static let nak = UbloxCommandHandlerTests.nak

  /// CFG-UART1-BAUDRATE asked for in RAM, with a byte too many or too few.
  @Test(arguments: [UBXMessageType.cfgVALGET, .cfgVALDEL], [3, 9])
  func aKeyListOfTheWrongLengthIsNakedAndNoted(type: UBXMessageType, count: Int) {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let payload = Array(
      ([0x00, 0x06, 0x00, 0x00, 0x01, 0x00, 0x52, 0x40, 0x00] as [UInt8]).prefix(count))
    let effects = handler.handle(.ubx(UBXFrame(type, payload: payload)))
    #expect(effects == [Self.nak(type)])
    #expect(
      handler.takeInputFaults() == [UBXInputFault(type: type, kind: .wrongLength(count: count))])
    #expect(handler.takeInputFaults().isEmpty, "taken")
  }

  @Test func aWholeKeyListIsNotAFault() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let poll = UBXFrame(.cfgVALGET, payload: [0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x52, 0x40])
    #expect(handler.handle(.ubx(poll)).count == 2, "the answer and its ACK")
    #expect(handler.takeInputFaults().isEmpty)
  }
}
