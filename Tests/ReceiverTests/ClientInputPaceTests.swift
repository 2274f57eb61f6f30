import Receiver
import Testing

/// A client's input is taken at the line's rate, with at most the read ahead (64 KiB) taken
/// that the line has not carried: at 9600 baud a byte is 1,041,667 ns of line (ten bits).
@Suite struct ClientInputPaceTests {
  static let at9600 = (try? BytePacing(baud: 9600)) ?? .unpaced
  static let ahead = ClientInputPace.readAheadBytes

  static func line(_ bytes: Int, timeScale: Double = 1) -> Int64 {
    at9600.wireNanoseconds(ofBytes: bytes, timeScale: timeScale)
  }

  @Test func aBurstUpToTheReadAheadIsTakenAtOnceAndTheNextReadWaitsForTheLine() {
    var pace = ClientInputPace()
    for _ in 0..<(Self.ahead / 4096) {
      #expect(
        pace.resumeNanoseconds(now: 0, readBytes: 4096, pacing: Self.at9600, timeScale: 1) == nil)
      pace.took(4096, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1)
    }
    // The line has the whole read ahead to carry: a read of 4 KiB waits until it has carried
    // 4 KiB, a read of one byte until it has carried one.
    let fourKiB = pace.resumeNanoseconds(now: 0, readBytes: 4096, pacing: Self.at9600, timeScale: 1)
    #expect(fourKiB == pace.lineFreeNanoseconds - Self.line(Self.ahead - 4096))
    #expect(abs((fourKiB ?? 0) - Self.line(4096)) <= 16)
    let oneByte = pace.resumeNanoseconds(now: 0, readBytes: 1, pacing: Self.at9600, timeScale: 1)
    #expect(oneByte == pace.lineFreeNanoseconds - Self.line(Self.ahead - 1))
    let later = (fourKiB ?? 0) + 1
    #expect(
      pace.resumeNanoseconds(now: later, readBytes: 4096, pacing: Self.at9600, timeScale: 1) == nil)
  }

  @Test func whatWasTakenAndNotCarriedNeverExceedsTheReadAhead() {
    var pace = ClientInputPace()
    var now: Int64 = 0
    // A client writing without end: each read is taken as soon as the pace lets it.
    for _ in 0..<100 {
      if let resume = pace.resumeNanoseconds(
        now: now, readBytes: 4096, pacing: Self.at9600, timeScale: 1)
      {
        now = resume
      }
      pace.took(4096, atNanoseconds: now, pacing: Self.at9600, timeScale: 1)
      #expect(pace.lineFreeNanoseconds - now <= Self.line(Self.ahead) + 16)
    }
    // 100 reads of 4 KiB: the first 16 at once, the other 84 at the line's rate.
    #expect(abs(now - Self.line(84 * 4096)) <= 100 * 16)
  }

  @Test func aLineLeftIdleStartsAgainFromNowNotFromWhenItLastCarried() {
    var pace = ClientInputPace()
    pace.took(4096, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1)
    pace.took(4096, atNanoseconds: 100_000_000_000, pacing: Self.at9600, timeScale: 1)
    #expect(pace.lineFreeNanoseconds == 100_000_000_000 + Self.line(4096))
  }

  @Test func theTimeScaleCompressesTheLineAsItDoesTheChipsOutput() {
    var pace = ClientInputPace()
    pace.took(Self.ahead, atNanoseconds: 0, pacing: Self.at9600, timeScale: 5)
    pace.took(9600, atNanoseconds: 0, pacing: Self.at9600, timeScale: 5)
    let resume = pace.resumeNanoseconds(now: 0, readBytes: 0, pacing: Self.at9600, timeScale: 5)
    #expect(abs((resume ?? 0) - Self.line(9600, timeScale: 5)) <= 16)
  }

  /// 9600 baud under `--time-scale 1000` is 9.6 MB a second of line: it is read no faster than
  /// 921600 baud's 92 KB a second.
  @Test func noTimeScaleReadsFasterThanTheFastestLine() {
    var pace = ClientInputPace()
    pace.took(Self.ahead, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1000)
    pace.took(92_160, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1000)
    let resume = pace.resumeNanoseconds(now: 0, readBytes: 0, pacing: Self.at9600, timeScale: 1000)
    #expect(abs((resume ?? 0) - 1_000_000_000) <= 16)
  }

  @Test func anUnpacedLineIsNeverHeldBack() {
    var pace = ClientInputPace()
    pace.took(1 << 30, atNanoseconds: 5, pacing: .unpaced, timeScale: 1)
    #expect(pace.resumeNanoseconds(now: 5, readBytes: 4096, pacing: .unpaced, timeScale: 1) == nil)
  }
}
