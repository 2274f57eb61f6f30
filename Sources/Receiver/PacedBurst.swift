/// One epoch's writes in progress, paced at the baud: each chunk goes out when the last of its
/// bytes would have arrived on a real line, counted from the burst's start.
///
/// Pure: the loop reads the monotonic clock, sleeps and writes; this only decides. A chunk that
/// comes due more than `toleranceNanoseconds` before the loop gets to it has fallen behind (the
/// process was stopped, the machine is loaded): it and the rest of the burst are dropped, never
/// rushed out.
public struct PacedBurst: Hashable, Sendable {
  /// How far behind its time a chunk may be written: one chunk's worth of line time.
  public static let toleranceNanoseconds: Int64 = 40_000_000

  /// The writes, in order.
  public let chunks: [BytePacing.Chunk]
  /// Monotonic nanoseconds when the burst starts.
  public let startNanoseconds: Int64
  /// The first chunk not yet written or dropped.
  public private(set) var nextIndex = 0

  /// What to do now.
  public enum Action: Hashable, Sendable {
    /// Sleep until the monotonic clock reads this.
    case wait(untilNanoseconds: Int64)
    /// Write these bytes of the epoch now.
    case write(Range<Int>)
    /// The burst fell behind: this many bytes are dropped, and the burst is over.
    case dropRest(byteCount: Int)
    /// Every chunk is written.
    case done
  }

  /// Starts a burst at `startNanoseconds` on the monotonic clock.
  public init(chunks: [BytePacing.Chunk], startNanoseconds: Int64) {
    self.chunks = chunks
    self.startNanoseconds = startNanoseconds
  }

  /// Decides what to do at monotonic time `now`.
  public mutating func next(now: Int64) -> Action {
    guard nextIndex < chunks.count else { return .done }
    let chunk = chunks[nextIndex]
    let due = startNanoseconds + chunk.offsetNanoseconds
    if now < due { return .wait(untilNanoseconds: due) }
    if now - due > Self.toleranceNanoseconds {
      let dropped = chunks[nextIndex...].map(\.range.count).reduce(0, +)
      nextIndex = chunks.count
      return .dropRest(byteCount: dropped)
    }
    nextIndex += 1
    return .write(chunk.range)
  }
}
