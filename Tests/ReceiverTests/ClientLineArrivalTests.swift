import Receiver
import Testing

/// When what a client writes has reached the chip through a UART at the chip's speed.
@Suite struct ClientLineArrivalTests {
  /// 9600 baud, 8N1: 960 bytes a second.
  static let pacing = BytePacing.baud9600
  static let byteNanoseconds: Int64 = 1_000_000_000 / 960

  @Test func aWriteOnAnIdleLineStartsWhenReadAndEachByteFollowsAtTheLineRate() {
    var line = ClientLineArrival()
    let write = line.write(byteCount: 12, readNanoseconds: 5_000, pacing: Self.pacing)
    #expect(write.startNanoseconds == 5_000)
    #expect(write.arrivalNanoseconds(afterBytes: 1) == 5_000 + Self.byteNanoseconds)
    // 12 bytes: 12 × 10 bits at 9600 baud, 12.5 ms.
    #expect(write.arrivalNanoseconds(afterBytes: 12) == 5_000 + 12_500_000)
    #expect(line.lineFreeNanoseconds == 5_000 + 12_500_000)
  }

  /// The pseudo-terminal hands a second write over at once; the line carries it only after
  /// the first.
  @Test func aWriteReadWhileTheLineIsBusyFollowsTheOneBefore() {
    var line = ClientLineArrival()
    _ = line.write(byteCount: 12, readNanoseconds: 0, pacing: Self.pacing)
    let second = line.write(byteCount: 24, readNanoseconds: 1_000_000, pacing: Self.pacing)
    #expect(second.startNanoseconds == 12_500_000)
    #expect(second.arrivalNanoseconds(afterBytes: 24) == 37_500_000)
    let later = line.write(byteCount: 1, readNanoseconds: 90_000_000, pacing: Self.pacing)
    #expect(later.startNanoseconds == 90_000_000, "an idle line again")
  }

  @Test func aTimeScaleCompressesTheLineAsItDoesTheChipsOutput() {
    var line = ClientLineArrival()
    let write = line.write(
      byteCount: 12, readNanoseconds: 0, pacing: Self.pacing, timeScale: 10)
    #expect(write.arrivalNanoseconds(afterBytes: 12) == 1_250_000)
  }

  @Test func anUnpacedChipHasEveryByteAtOnce() {
    var line = ClientLineArrival()
    let write = line.write(byteCount: 4096, readNanoseconds: 7, pacing: .unpaced)
    #expect(write.arrivalNanoseconds(afterBytes: 4096) == 7)
  }

  /// A message can begin in an earlier write: its first byte's start is found in the write
  /// that carried it.
  @Test func aByteOfAnEarlierWriteStartedWhenThatWriteCarriedIt() {
    var line = ClientLineArrival()
    let first = line.write(byteCount: 4, readNanoseconds: 1_000, pacing: Self.pacing)
    let second = line.write(byteCount: 9, readNanoseconds: 60_000_000, pacing: Self.pacing)
    #expect(second.streamOffset == 4)
    #expect(line.startNanoseconds(ofStreamByte: 0) == 1_000)
    #expect(line.startNanoseconds(ofStreamByte: 2) == first.arrivalNanoseconds(afterBytes: 2))
    #expect(line.startNanoseconds(ofStreamByte: 4) == 60_000_000)
    #expect(line.startNanoseconds(ofStreamByte: 6) == second.arrivalNanoseconds(afterBytes: 2))
  }

  /// A client writing a byte at a time costs bounded memory: the line keeps its last writes,
  /// and a message begun before them is taken to begin with the oldest kept.
  @Test func theLineKeepsItsRecentWritesOnly() {
    var line = ClientLineArrival()
    let count = ClientLineArrival.rememberedWrites + 10
    let writes = (0..<count).map {
      line.write(byteCount: 1, readNanoseconds: Int64($0) * 10_000_000, pacing: Self.pacing)
    }
    #expect(line.startNanoseconds(ofStreamByte: count - 1) == writes[count - 1].startNanoseconds)
    #expect(line.startNanoseconds(ofStreamByte: 0) == writes[10].startNanoseconds)
    // A long write makes the ones before it useless: no message is longer than a UBX frame.
    _ = line.write(
      byteCount: ClientLineArrival.rememberedBytes, readNanoseconds: 9_000_000_000, pacing: .unpaced
    )
    #expect(line.startNanoseconds(ofStreamByte: 0) == 9_000_000_000)
  }
}
