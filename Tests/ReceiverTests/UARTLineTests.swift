import Receiver
import Testing

/// What a UART at one speed makes of bytes sent at another, computed by hand on the bit
/// pattern (start bit low, data least significant bit first, stop bit high).
struct UARTLineTests {
  /// Sends `bytes` in one write on an idle line and lets the line go idle after.
  private static func received(_ bytes: [UInt8], sender: Int, receiver: Int) -> [UInt8] {
    var line = UARTLine(senderBaud: sender, receiverBaud: receiver)
    return line.send(bytes) + line.idle()
  }

  private static let sentence = Array(
    "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)

  @Test(arguments: [4800, 9600, 115_200])
  func atTheSameSpeedEveryByteArrivesAsSent(baud: Int) {
    let every = (0...255).map { UInt8($0) }
    #expect(Self.received(every, sender: baud, receiver: baud) == every)
    #expect(Self.received(Self.sentence, sender: baud, receiver: baud) == Self.sentence)
  }

  /// 0x00 at 9600 is nine low bits and a high stop bit; a 4800 receiver samples every second
  /// one, at sent bits 1 (start), 3, 5, 7, 9 (the stop bit, high), then the idle line: data
  /// 0,0,0,1,1,1,1,1 least significant first.
  @Test func aByteAtTwiceTheReceiversSpeedIsReadAsTheBitsItHalves() {
    #expect(Self.received([0x00], sender: 9600, receiver: 4800) == [0xF8])
  }

  /// 0x55 alternates every sent bit: each falling edge is followed by a high sample in the
  /// middle of the slower start bit, a glitch, so nothing arrives.
  @Test func alternatingBitsAtTwiceTheSpeedGiveOnlyFalseStarts() {
    #expect(Self.received([0x55], sender: 9600, receiver: 4800) == [])
  }

  /// 0x0F at 4800 (low, four high, four low, high) read at 9600: the first frame ends in the
  /// middle of the high bits (data 0 then seven 1: 0xFE, stop high), the next starts at the
  /// fall to the low bits (seven 0 then the stop bit, 1: 0x80).
  @Test func aByteAtHalfTheReceiversSpeedIsReadAsTwo() {
    #expect(Self.received([0x0F], sender: 4800, receiver: 9600) == [0xFE, 0x80])
  }

  /// Two 0x00 back to back at 9600 read at 4800: one frame over both (samples at sent bits 1,
  /// 3 … 17, the fourth data bit on the first stop bit: 0x08); with the line idle in between,
  /// the receiver starts again at the second start bit and reads each as alone.
  @Test func anIdleGapResynchronisesTheReceiver() {
    var backToBack = UARTLine(senderBaud: 9600, receiverBaud: 4800)
    #expect(backToBack.send([0x00, 0x00]) + backToBack.idle() == [0x08])
    var apart = UARTLine(senderBaud: 9600, receiverBaud: 4800)
    let first = apart.send([0x00])
    let second = apart.send([0x00], idleBitsBefore: 20)
    #expect(first + second + apart.idle() == [0xF8, 0xF8])
  }

  /// After any garbage and a gap longer than a frame, what follows reads as on a fresh line.
  @Test func afterAnIdleGapWhatFollowsIsReadAsOnAFreshLine() {
    var line = UARTLine(senderBaud: 9600, receiverBaud: 4800)
    _ = line.send(Self.sentence)
    _ = line.idle()
    let afterGap = line.send([0x00, 0x0F, 0x00], idleBitsBefore: 100) + line.idle()
    // The longest gap completes the sentence's last frame, then reads the rest afresh.
    var withoutIdle = UARTLine(senderBaud: 9600, receiverBaud: 4800)
    let sentence = withoutIdle.send(Self.sentence)
    let afterLongestGap = withoutIdle.send([0x00, 0x0F, 0x00], idleBitsBefore: .max)
    #expect(
      sentence + afterLongestGap + withoutIdle.idle()
        == Self.received(Self.sentence, sender: 9600, receiver: 4800) + afterGap)
    #expect(afterGap == Self.received([0x00, 0x0F, 0x00], sender: 9600, receiver: 4800))
  }

  /// 0x00 at 115200 read at 9600 (12 sent bits a received one): each frame starts at a start
  /// bit, samples only low bits (a framing error, delivered as 0x00 as Linux does in raw mode)
  /// and its stop sample falls in the twelfth byte, so the next edge is the thirteenth's start.
  @Test func aFastLineReadSlowlyGivesOneByteInTwelve() {
    let received = Self.received(
      Array(repeating: 0x00, count: 120), sender: 115_200, receiver: 9600)
    #expect(received == Array(repeating: 0x00, count: 10))
  }

  /// A frame spans at least 9.5 received bits (114 sent bits at 115200 against 9600), so an
  /// NMEA burst arrives as at most one byte per 11.4 sent; and every frame starts at an edge.
  @Test func aSentenceAtTwelveTimesTheSpeedShrinksToGarbage() {
    let burst = Array(repeating: Self.sentence, count: 10).flatMap { $0 }
    let received = Self.received(burst, sender: 115_200, receiver: 9600)
    #expect(received.count <= burst.count * 10 / 114 + 1)
    #expect(received.count >= burst.count / 20)
    #expect(received != Array(burst.prefix(received.count)))
  }

  /// A slow sender read fast gives more bytes than sent, none of them the sentence.
  @Test func aSentenceAtAFractionOfTheSpeedGrowsIntoGarbage() {
    let received = Self.received(Self.sentence, sender: 4800, receiver: 115_200)
    #expect(received.count > Self.sentence.count)
    #expect(!received.starts(with: Array("$GP".utf8)))
  }

  /// How the bytes were cut into writes does not change what arrives when nothing idles in
  /// between: a frame in progress waits for the next write.
  @Test(arguments: [(9600, 4800), (4800, 9600), (115_200, 9600), (9600, 38400)])
  func theBytesReceivedDoNotDependOnHowTheWritesWereCut(sender: Int, receiver: Int) {
    let whole = Self.received(Self.sentence + Self.sentence, sender: sender, receiver: receiver)
    var line = UARTLine(senderBaud: sender, receiverBaud: receiver)
    var cut: [UInt8] = []
    var start = 0
    for size in [1, 7, 3, 30, 2, 60, 200] where start < 2 * Self.sentence.count {
      let end = min(start + size, 2 * Self.sentence.count)
      cut += line.send((Self.sentence + Self.sentence)[start..<end])
      start = end
    }
    #expect(cut + line.idle() == whole)
  }
}
