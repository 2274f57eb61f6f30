/// When the bytes a client writes have reached the chip through its UART.
///
/// The pseudo-terminal hands a client's write over at once; a UART carries it at the line
/// rate. Each write goes on the line when the chip's side reads it or, while the bytes written
/// before still occupy the line, right after them; its bytes follow each other at the pacing
/// (8N1, ten bits a byte, compressed by the time scale as the chip's output is). A command has
/// arrived when its last byte has: only then can the chip process it. A command begins when its
/// first byte starts, which may be in an earlier write: the line keeps its recent writes
/// (`startNanoseconds(ofStreamByte:)`).
///
/// Pure: the device reads the clock and passes it in.
public struct ClientLineArrival: Hashable, Sendable {
  /// When the line from the client has carried every byte written so far.
  public private(set) var lineFreeNanoseconds: Int64 = .min
  /// How many bytes the line has carried: the stream offset of the next write's first byte.
  public private(set) var streamByteCount = 0
  /// The recent writes, oldest first: the last `rememberedWrites`, less the ones that ended
  /// `rememberedBytes` or more before the stream's end (no message is that long).
  private var recentWrites: [Write] = []

  /// How many writes the line keeps, so that a client writing a byte at a time costs bounded
  /// memory; a message spread over more writes is taken to begin with the oldest kept.
  public static let rememberedWrites = 256
  /// How far back in the stream a message can begin: the longest UBX frame.
  public static let rememberedBytes = 65_535 + 8

  /// A line that carried nothing yet.
  public init() {}

  /// One write on the line: when its first byte starts, and at which pace the rest follow.
  public struct Write: Hashable, Sendable {
    /// Monotonic nanoseconds when its first byte starts on the line.
    public let startNanoseconds: Int64
    /// The offset of its first byte in the line's stream.
    public let streamOffset: Int
    let pacing: BytePacing
    let timeScale: Double

    /// When the first `byteCount` bytes of the write have fully arrived (a command that ends
    /// with the write's `byteCount`th byte has arrived then).
    public func arrivalNanoseconds(afterBytes byteCount: Int) -> Int64 {
      startNanoseconds + pacing.wireNanoseconds(ofBytes: byteCount, timeScale: timeScale)
    }
  }

  /// Puts a write of `byteCount` bytes, read at `readNanoseconds`, on a line at `pacing` under
  /// `timeScale`; the line is then busy until its last byte has arrived.
  public mutating func write(
    byteCount: Int, readNanoseconds: Int64, pacing: BytePacing, timeScale: Double = 1
  ) -> Write {
    let write = Write(
      startNanoseconds: max(readNanoseconds, lineFreeNanoseconds), streamOffset: streamByteCount,
      pacing: pacing, timeScale: timeScale)
    lineFreeNanoseconds = write.arrivalNanoseconds(afterBytes: byteCount)
    streamByteCount += byteCount
    recentWrites.append(write)
    let oldestNeeded = streamByteCount - Self.rememberedBytes
    while recentWrites.count > Self.rememberedWrites
      || (recentWrites.count > 1 && recentWrites[1].streamOffset <= oldestNeeded)
    {
      recentWrites.removeFirst()
    }
    return write
  }

  /// When the byte at `offset` in the line's stream started to arrive: within the write that
  /// carried it; the oldest kept write's start for a byte before it.
  public func startNanoseconds(ofStreamByte offset: Int) -> Int64 {
    guard let write = recentWrites.last(where: { $0.streamOffset <= offset }) ?? recentWrites.first
    else { return lineFreeNanoseconds }
    return write.arrivalNanoseconds(afterBytes: max(offset - write.streamOffset, 0))
  }
}
