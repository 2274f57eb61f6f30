/// One epoch's writes in progress, paced at the baud: each chunk goes out when a real line
/// would start sending its first byte (the first chunk when the epoch is due), so that the
/// epoch's first byte is on time and the next write waits until the line has carried the last.
///
/// Pure: the loop reads the monotonic clock, sleeps and writes; this only decides, right before
/// each write. A chunk written late holds back the ones after it by as much, so the line rate is
/// never exceeded. A chunk more than `toleranceNanoseconds` behind its time (the process was
/// stopped, the machine is loaded) ends the burst: it and the rest are dropped, never rushed
/// out; when that is the first chunk, the whole epoch is late and nothing is sent.
///
/// The first write also waits until the line has carried the burst before
/// (`notBeforeNanoseconds`, that burst's `lineFreeNanoseconds`): an epoch longer than its
/// period holds back the next one, which starts late or, past the tolerance, is not sent.
/// A reply to a command that goes out between two chunks holds back the chunks after it the
/// same way (`holdLine(untilNanoseconds:)`).
public struct PacedBurst: Hashable, Sendable {
  /// The writes, in order.
  public let chunks: [BytePacing.Chunk]
  /// Monotonic nanoseconds when the epoch was due.
  public let startNanoseconds: Int64
  /// How far behind its time a chunk may still be written.
  public let toleranceNanoseconds: Int64
  /// The first chunk not yet written or dropped.
  public private(set) var nextIndex = 0
  /// How far the burst runs behind its schedule, from the latest chunk written.
  public private(set) var delayNanoseconds: Int64 = 0
  /// Chunks written so far: a burst dropped before its first write was never sent at all.
  public private(set) var writtenCount = 0
  /// When the line is free of the burst before, or of a reply sent between chunks: the next
  /// write is never earlier.
  public private(set) var notBeforeNanoseconds: Int64
  /// Monotonic nanoseconds when the first chunk was written; nil before.
  public private(set) var firstWriteNanoseconds: Int64?

  /// When the line has carried every chunk written so far (the last one's write plus its line
  /// time); nil before the first write.
  public var lineFreeNanoseconds: Int64? {
    guard writtenCount > 0 else { return nil }
    return startNanoseconds + delayNanoseconds + chunks[writtenCount - 1].offsetNanoseconds
  }

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

  /// Starts the burst of an epoch due at `startNanoseconds` on the monotonic clock, its first
  /// write not before `notBeforeNanoseconds` (when the line is free of the burst before).
  public init(
    chunks: [BytePacing.Chunk], startNanoseconds: Int64, toleranceNanoseconds: Int64,
    notBeforeNanoseconds: Int64 = .min
  ) {
    self.chunks = chunks
    self.startNanoseconds = startNanoseconds
    self.toleranceNanoseconds = toleranceNanoseconds
    self.notBeforeNanoseconds = notBeforeNanoseconds
  }

  /// Notes that the line carries something else (a reply) until `untilNanoseconds`: the next
  /// chunk waits for it, and the ones after follow at their pace from there.
  public mutating func holdLine(untilNanoseconds: Int64) {
    notBeforeNanoseconds = max(notBeforeNanoseconds, untilNanoseconds)
  }

  /// Decides what to do at monotonic time `now`.
  public mutating func next(now: Int64) -> Action {
    guard nextIndex < chunks.count else { return .done }
    let chunk = chunks[nextIndex]
    let scheduled = startNanoseconds + chunk.startOffsetNanoseconds
    let earliest = max(scheduled + delayNanoseconds, notBeforeNanoseconds)
    if now < earliest, earliest - scheduled <= toleranceNanoseconds {
      return .wait(untilNanoseconds: earliest)
    }
    // Too late now, or the line stays busy past the tolerance: dropped without waiting.
    if max(now, earliest) - scheduled > toleranceNanoseconds {
      let dropped = chunks[nextIndex...].map { $0.range.count }.reduce(0, +)
      nextIndex = chunks.count
      return .dropRest(byteCount: dropped)
    }
    delayNanoseconds = now - scheduled
    if writtenCount == 0 { firstWriteNanoseconds = now }
    nextIndex += 1
    writtenCount += 1
    return .write(chunk.range)
  }
}
