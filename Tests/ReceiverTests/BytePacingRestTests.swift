import Receiver
import Testing

/// What a client that opens the device in the middle of a burst receives of it.
struct BytePacingRestTests {
  /// Three sentences of 38 bytes at 9600 baud (960 bytes a second): three writes, at 0,
  /// 39.58 ms and 79.17 ms.
  private static let pacing = BytePacing.baud9600
  private static let chunks = pacing.chunks(forLineLengths: [38, 38, 38])

  @Test func theChunksAreOneASentence() {
    #expect(Self.chunks.map(\.range) == [0..<38, 38..<76, 76..<114])
  }

  @Test func fromTheStartTheWholeBurstRemains() {
    #expect(Self.pacing.rest(of: Self.chunks, fromNanoseconds: 0) == Self.chunks)
    #expect(Self.pacing.rest(of: Self.chunks, fromNanoseconds: -5) == Self.chunks)
  }

  /// 50 ms in: byte 48 starts exactly then (48 / 960 s); the second write is cut to it and
  /// leaves at once, the third as planned.
  @Test func midBurstTheBytesFromTheOpenRemain() {
    let rest = Self.pacing.rest(of: Self.chunks, fromNanoseconds: 50_000_000)
    #expect(rest.map(\.range) == [48..<76, 76..<114])
    #expect(rest.first?.startOffsetNanoseconds == 50_000_000)
    #expect(rest.first?.offsetNanoseconds == Self.chunks[1].offsetNanoseconds)
    #expect(rest.last == Self.chunks[2])
    // A nanosecond later byte 48 is already on the line: the rest starts at byte 49.
    let later = Self.pacing.rest(of: Self.chunks, fromNanoseconds: 50_000_001)
    #expect(later.first?.range == 49..<76)
  }

  @Test func afterTheBurstNothingRemains() {
    #expect(Self.pacing.rest(of: Self.chunks, fromNanoseconds: 118_750_000).isEmpty)
    #expect(Self.pacing.rest(of: Self.chunks, fromNanoseconds: 1_000_000_000).isEmpty)
  }

  /// Unpaced, the whole burst leaves at its start: a moment later nothing remains.
  @Test func unpacedNothingRemainsAfterTheStart() throws {
    let unpaced = try BytePacing(baud: 0)
    let chunks = unpaced.chunks(forLineLengths: [38, 38])
    #expect(unpaced.rest(of: chunks, fromNanoseconds: 1).isEmpty)
  }

  /// Twice as fast on the wire: 25 ms of wire time are 50 ms of line time.
  @Test func underATimeScaleTheOffsetIsWireTime() {
    let chunks = Self.pacing.chunks(forLineLengths: [38, 38, 38], timeScale: 2)
    let rest = Self.pacing.rest(of: chunks, fromNanoseconds: 25_000_000, timeScale: 2)
    #expect(rest.first?.range.lowerBound == 48)
    #expect(rest.first?.startOffsetNanoseconds == 25_000_000)
  }
}
