import Receiver
import Testing

/// A reply written between two chunks of a burst holds the line: the burst goes on after it.
@Suite struct PacedBurstHoldLineTests {
  /// 250 bytes at 2,500 a second, in writes of up to 40 ms of line time.
  static let chunks = PacedBurstTests.chunks
  static let tolerance = PacedBurstTests.tolerance

  @Test func theNextChunkWaitsForTheReplyAndTheRestFollowAtTheirPace() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 0) == .write(0..<100))
    // A reply of 10 ms of line time written when the first chunk has been carried.
    burst.holdLine(untilNanoseconds: 50_000_000)
    #expect(burst.next(now: 40_000_000) == .wait(untilNanoseconds: 50_000_000))
    #expect(burst.next(now: 50_000_000) == .write(100..<200))
    #expect(burst.next(now: 50_000_000) == .wait(untilNanoseconds: 90_000_000))
    #expect(burst.lineFreeNanoseconds == 90_000_000)
  }

  /// A hold never moves the line earlier than the burst before left it.
  @Test func anEarlierHoldChangesNothing() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance,
      notBeforeNanoseconds: 10_000_000)
    burst.holdLine(untilNanoseconds: 5_000_000)
    #expect(burst.next(now: 0) == .wait(untilNanoseconds: 10_000_000))
  }

  /// A reply that holds the line past the tolerance costs the rest of the burst, as any delay.
  @Test func aHoldPastTheToleranceDropsTheRest() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 0) == .write(0..<100))
    burst.holdLine(untilNanoseconds: 40_000_000 + Self.tolerance + 1)
    #expect(burst.next(now: 40_000_000) == .dropRest(byteCount: 150))
  }
}
