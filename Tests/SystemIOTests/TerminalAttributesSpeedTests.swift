import Glibc
import Testing

@testable import SystemIO

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
    attributes.setLineSpeed(bitsPerSecond == 1800 ? 9600 : 1800)  // not B0, where it starts
    attributes.setLineSpeed(bitsPerSecond)
    #expect(attributes.lineSpeed == bitsPerSecond)
  }

  /// Each speed's constant is the one of its name, both ways (a swapped pair would read back
  /// as set all the same).
  @Test func eachSpeedHasTheConstantOfItsName() {
    let named: [(Int, speed_t)] = [
      (0, speed_t(B0)), (50, speed_t(B50)), (75, speed_t(B75)), (110, speed_t(B110)),
      (134, speed_t(B134)), (150, speed_t(B150)), (200, speed_t(B200)), (300, speed_t(B300)),
      (600, speed_t(B600)), (1200, speed_t(B1200)), (1800, speed_t(B1800)),
      (2400, speed_t(B2400)), (4800, speed_t(B4800)), (9600, speed_t(B9600)),
      (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)),
      (115_200, speed_t(B115200)), (230_400, speed_t(B230400)), (460_800, speed_t(B460800)),
      (500_000, speed_t(B500000)), (576_000, speed_t(B576000)), (921_600, speed_t(B921600)),
      (1_000_000, speed_t(B1000000)), (1_152_000, speed_t(B1152000)),
      (1_500_000, speed_t(B1500000)), (2_000_000, speed_t(B2000000)),
      (2_500_000, speed_t(B2500000)), (3_000_000, speed_t(B3000000)),
      (3_500_000, speed_t(B3500000)), (4_000_000, speed_t(B4000000)),
    ]
    #expect(TerminalAttributes.lineSpeeds.count == named.count)
    for (bitsPerSecond, constant) in named {
      #expect(TerminalAttributes.lineSpeeds[bitsPerSecond] == constant, "\(bitsPerSecond)")
      #expect(TerminalAttributes.bitsPerSecond(ofConstant: constant) == bitsPerSecond)
    }
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
