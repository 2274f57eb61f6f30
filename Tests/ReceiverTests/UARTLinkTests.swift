import Receiver
import Testing

/// Both directions between the chip and a client, each at its speed.
struct UARTLinkTests {
  private static let sentence = Array("$PMTK605*31\r\n".utf8)[...]

  @Test func untilTheClientsSpeedIsKnownBytesPassAsSent() {
    var link = UARTLink(chipBaud: 9600)
    #expect(link.isClean)
    #expect(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true) == Self.sentence)
    #expect(link.clientSends(Self.sentence) == Self.sentence)
  }

  @Test func atTheSameSpeedOrUnpacedBytesPassAsSent() {
    var same = UARTLink(chipBaud: 9600)
    same.setClientBaud(9600)
    #expect(same.chipSends(Self.sentence, afterIdle: true, thenIdle: true) == Self.sentence)
    var unpaced = UARTLink(chipBaud: 0)
    unpaced.setClientBaud(4800)
    #expect(unpaced.isClean)
    #expect(unpaced.clientSends(Self.sentence) == Self.sentence)
  }

  /// Each direction is a `UARTLine` from the sender's speed to the receiver's.
  @Test func atDifferentSpeedsEachDirectionIsReadAtItsReceiversSpeed() {
    var link = UARTLink(chipBaud: 9600)
    link.setClientBaud(4800)
    var toClient = UARTLine(senderBaud: 9600, receiverBaud: 4800)
    var toChip = UARTLine(senderBaud: 4800, receiverBaud: 9600)
    #expect(
      Array(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true))
        == toClient.send(Self.sentence) + toClient.idle())
    #expect(Array(link.clientSends(Self.sentence)) == toChip.send(Self.sentence) + toChip.idle())
  }

  /// The chip moving to the client's speed (a baud command) makes the line clean, and a
  /// client that then moves away garbles again.
  @Test func aChangeOfEitherSpeedTakesEffectAtOnce() {
    var link = UARTLink(chipBaud: 9600)
    link.setClientBaud(38_400)
    #expect(!link.isClean)
    link.setChipBaud(38_400)
    #expect(link.isClean)
    #expect(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true) == Self.sentence)
    link.setClientBaud(9600)
    #expect(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true) != Self.sentence)
  }

  /// A speed no receiver offers still garbles: the client's UART samples at it.
  @Test func aSpeedOutsideTheChipsTableGarbles() {
    var link = UARTLink(chipBaud: 9600)
    link.setClientBaud(50)
    #expect(!link.isClean)
    var line = UARTLine(senderBaud: 9600, receiverBaud: 50)
    #expect(
      Array(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true))
        == line.send(Self.sentence) + line.idle())
  }

  /// Linux runs a UART told B0 at 9600 baud.
  @Test func atB0TheClientSamplesAt9600() {
    var link = UARTLink(chipBaud: 38_400)
    link.setClientBaud(0)
    #expect(link.clientBaud == UARTLink.hangUpBaud)
    var line = UARTLine(senderBaud: 38_400, receiverBaud: 9600)
    #expect(
      Array(link.chipSends(Self.sentence, afterIdle: true, thenIdle: true))
        == line.send(Self.sentence) + line.idle())
    link.setChipBaud(9600)
    #expect(link.isClean)
  }
}
