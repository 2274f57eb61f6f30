/// When the bytes a client writes have reached the chip through its UART.
///
/// The pseudo-terminal hands a client's write over at once; a UART carries it at the line
/// rate. Each write goes on the line when the chip's side reads it or, while the bytes written
/// before still occupy the line, right after them; its bytes follow each other at the pacing
/// (8N1, ten bits a byte, compressed by the time scale as the chip's output is). A command has
/// arrived when its last byte has: only then can the chip process it.
///
/// Pure: the device reads the clock and passes it in.
public struct ClientLineArrival: Hashable, Sendable {
  /// When the line from the client has carried every byte written so far.
  public private(set) var lineFreeNanoseconds: Int64 = .min

  /// A line that carried nothing yet.
  public init() {}

  /// One write on the line: when its first byte starts, and at which pace the rest follow.
  public struct Write: Hashable, Sendable {
    /// Monotonic nanoseconds when its first byte starts on the line.
    public let startNanoseconds: Int64
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
      startNanoseconds: max(readNanoseconds, lineFreeNanoseconds), pacing: pacing,
      timeScale: timeScale)
    lineFreeNanoseconds = write.arrivalNanoseconds(afterBytes: byteCount)
    return write
  }
}
