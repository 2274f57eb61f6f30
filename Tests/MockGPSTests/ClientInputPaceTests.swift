import Receiver
import Testing

@testable import DeviceTerminal

/// The chip's side takes what clients write at the line's rate, a read ahead at most: at 9600
/// baud a byte is 1,041,667 ns of line (ten bits), 4,096 bytes 4.27 s.
@Suite struct ClientInputPaceTests {
  static let second: Int64 = 1_000_000_000
  static let at9600 = (try? BytePacing(baud: 9600)) ?? .unpaced

  @Test func aReadAheadOfTheLineIsTakenAndTheNextWaitsUntilTheLineHasCarriedEnough() {
    var pace = ClientInputPace()
    #expect(pace.resumeNanoseconds(now: 0, pacing: Self.at9600, timeScale: 1) == nil)
    pace.took(4096, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1)
    // Exactly a read ahead: one more read may go.
    #expect(pace.resumeNanoseconds(now: 0, pacing: Self.at9600, timeScale: 1) == nil)
    pace.took(960, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1)
    let resume = pace.resumeNanoseconds(now: 0, pacing: Self.at9600, timeScale: 1)
    #expect(resume == Self.at9600.wireNanoseconds(ofBytes: 960, timeScale: 1))
    // About a second of line, the 960 bytes past the read ahead.
    #expect(abs((resume ?? 0) - Self.second) < Self.second / 100)
    #expect(pace.resumeNanoseconds(now: resume ?? 0, pacing: Self.at9600, timeScale: 1) == nil)
  }

  @Test func aLineLeftIdleStartsAgainFromNowNotFromWhenItLastCarried() {
    var pace = ClientInputPace()
    pace.took(4096, atNanoseconds: 0, pacing: Self.at9600, timeScale: 1)
    pace.took(4096, atNanoseconds: 100 * Self.second, pacing: Self.at9600, timeScale: 1)
    #expect(
      pace.lineFreeNanoseconds
        == 100 * Self.second + Self.at9600.wireNanoseconds(ofBytes: 4096, timeScale: 1))
  }

  @Test func theTimeScaleCompressesTheLineAsItDoesTheChipsOutput() {
    var pace = ClientInputPace()
    pace.took(4096, atNanoseconds: 0, pacing: Self.at9600, timeScale: 10)
    pace.took(9600, atNanoseconds: 0, pacing: Self.at9600, timeScale: 10)
    let resume = pace.resumeNanoseconds(now: 0, pacing: Self.at9600, timeScale: 10)
    #expect(resume == Self.at9600.wireNanoseconds(ofBytes: 9600, timeScale: 10))
  }

  @Test func anUnpacedLineIsNeverHeldBack() {
    var pace = ClientInputPace()
    pace.took(1 << 30, atNanoseconds: 5, pacing: .unpaced, timeScale: 1)
    #expect(pace.resumeNanoseconds(now: 5, pacing: .unpaced, timeScale: 1) == nil)
  }
}
