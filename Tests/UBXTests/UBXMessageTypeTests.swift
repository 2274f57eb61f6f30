import Testing
import UBX

@Suite struct UBXMessageTypeTests {
  @Test func knownMessagesUseTheUBloxNames() {
    #expect(UBXMessageType.cfgRATE.description == "CFG-RATE")
    #expect(UBXMessageType.cfgPRT.description == "CFG-PRT")
    #expect(UBXMessageType.monVER.description == "MON-VER")
    #expect(UBXMessageType.ackACK.description == "ACK-ACK")
    #expect(UBXMessageType.ackNAK.description == "ACK-NAK")
    #expect(UBXMessageType(messageClass: 0x06, id: 0x08) == .cfgRATE)
  }

  @Test func unknownPartsPrintInHexadecimal() {
    #expect(UBXMessageType(messageClass: 0x06, id: 0x42).description == "CFG-0x42")
    #expect(UBXMessageType(messageClass: 0x06, id: 0x42).name == nil)
    #expect(UBXMessageType(messageClass: 0x99, id: 0x01).description == "0x99-0x01")
  }

  @Test func aFrameKnowsItsType() {
    #expect(UBXFrame(messageClass: 0x0A, id: 0x04).messageType == .monVER)
  }
}
