import SystemIO
import Testing

/// Every speed a Linux terminal takes by a `B…` constant, set and read without a terminal.
@Suite struct TerminalAttributesSpeedTests {
  @Test(arguments: [0, 50, 1800, 9600, 115_200, 500_000, 4_000_000])
  func aLineSpeedReadsBackAsSet(bitsPerSecond: Int) {
    var attributes = TerminalAttributes()
    attributes.setLineSpeed(bitsPerSecond)
    #expect(attributes.lineSpeed == bitsPerSecond)
  }

  /// `baud` knows only the speeds a receiver offers; `lineSpeed` knows the others too.
  @Test func aSpeedNoReceiverOffersHasALineSpeedButNoBaud() {
    var attributes = TerminalAttributes()
    attributes.setLineSpeed(50)
    #expect(attributes.baud == nil)
    #expect(attributes.lineSpeed == 50)
  }

  @Test func aSpeedWithoutAConstantLeavesTheSpeedAsItWas() {
    var attributes = TerminalAttributes()
    attributes.setLineSpeed(4800)
    attributes.setLineSpeed(12_345)
    #expect(attributes.lineSpeed == 4800)
  }
}
