import SystemIO
import Testing

/// Every speed a Linux terminal takes by a `B…` constant, set and read without a terminal.
@Suite struct TerminalAttributesSpeedTests {
  static let everyLineSpeed = [
    0, 50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600,
    115_200, 230_400, 460_800, 500_000, 576_000, 921_600, 1_000_000, 1_152_000, 1_500_000,
    2_000_000, 2_500_000, 3_000_000, 3_500_000, 4_000_000,
  ]

  @Test(arguments: everyLineSpeed)
  func aLineSpeedReadsBackAsSet(bitsPerSecond: Int) {
    var attributes = TerminalAttributes()
    attributes.setLineSpeed(bitsPerSecond)
    #expect(attributes.lineSpeed == bitsPerSecond)
  }

  /// The standard bauds, set by number, read back as bauds; the others are no baud.
  @Test func theStandardBaudsReadBackAsSet() {
    for bitsPerSecond in Self.everyLineSpeed {
      var attributes = TerminalAttributes()
      attributes.setLineSpeed(1800)
      attributes.setSpeed(baud: bitsPerSecond)
      let standard = [
        1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600,
      ]
      .contains(bitsPerSecond)
      #expect(attributes.baud == (standard ? bitsPerSecond : nil), "\(bitsPerSecond)")
      #expect(attributes.lineSpeed == (standard ? bitsPerSecond : 1800), "\(bitsPerSecond)")
    }
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
