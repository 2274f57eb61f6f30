import Receiver
import Testing
import UBX

@Suite struct ClientInputChecksumTests {
  @Test func linesWithAMissingOrWrongChecksumAreCountedAndDropped() {
    var input = ClientInput()
    let bytes = Array(
      "$PMTK605*31\r\n$PMTK605*32\r\n$PMTK605\r\n$PMTK605*3\r\n$PMTK605*ZZ\r\n$PMTK220,200*2c\r\n"
        .utf8)
    #expect(input.receive(bytes) == [.nmea("$PMTK605*31"), .nmea("$PMTK220,200*2c")])
    #expect(input.badChecksumSentenceCount == 4)
  }

  @Test func aChecksumWithoutASentenceIsNoSentence() {
    var input = ClientInput()
    #expect(input.receive(Array("$*00\r\n$*01\r\n".utf8)) == [.nmea("$*00")])
    #expect(input.badChecksumSentenceCount == 1)
  }

  @Test func garbageAndTruncatedInputNeverReachAHandler() {
    var input = ClientInput()
    var handler = MTKCommandHandler(profile: MTKCommandHandlerTests.mtk)
    let garbage: [UInt8] = [0x00, 0xFF, 0x24, 0x24, 0x2A, 0x0D, 0x0A, 0xB5]
    var effects: [ReceiverEffect] = []
    for message in input.receive(garbage + Array("$PMTK220,2".utf8)) {
      effects += handler.handle(message)
    }
    #expect(effects == [])
    // The cut-off command completes with the next bytes.
    for message in input.receive(Array("00*2C\r\n".utf8)) { effects += handler.handle(message) }
    #expect(effects.first == .reply(Array("$PMTK001,220,3*30\r\n".utf8)))
  }

  @Test func aUBXFrameWithABadChecksumIsDroppedAsBytes() {
    var input = ClientInput()
    var frame = UBXFrame(.monVER).bytes
    frame[frame.count - 1] ^= 0xFF
    #expect(input.receive(frame) == [])
    #expect(input.discardedByteCount > 0)
  }
}
