import Receiver
import SystemIO

extension PacedBurst {
  /// How writing a burst ended.
  enum WriteOutcome: Hashable, Sendable {
    /// Every chunk was written.
    case done
    /// The burst fell behind its pacing and the rest was dropped (see `PacedBurst`);
    /// `nothingSent` when that happened before the first write.
    case fellBehind(nothingSent: Bool)
    /// A write failed: the client left, or its queue was full.
    case writeFailed
    /// The thread was stopped.
    case stopped
  }

  /// Where a burst written without blocking stands.
  enum Progress: Hashable, Sendable {
    /// The next chunk is due at this monotonic time: come back then.
    case wait(untilNanoseconds: Int64)
    /// The burst is over.
    case ended(WriteOutcome)

    /// The burst is over.
    var isOver: Bool {
      if case .ended = self { return true }
      return false
    }
  }

  /// Writes every chunk due at `now` (read before each one) through `write`, which returns
  /// false when the bytes could not be written, and says when to come back; never blocks.
  /// With `yieldingAfterFirstWrite`, it comes back at once after the burst's first write, so
  /// that a scheduler can write the first bytes of every epoch due at one instant before
  /// anything else.
  ///
  /// The one place where an epoch's bytes are paced onto the wire, for live epochs (a step of
  /// the runtime's scheduler) and replayed ones alike.
  mutating func writeDue(
    _ bytes: [UInt8], now: () -> Int64, yieldingAfterFirstWrite: Bool = false,
    write: (ArraySlice<UInt8>) -> Bool
  ) -> Progress {
    while true {
      let time = now()
      switch next(now: time) {
      case .wait(let until):
        return .wait(untilNanoseconds: until)
      case .write(let range):
        guard write(bytes[range]) else { return .ended(.writeFailed) }
        if yieldingAfterFirstWrite, writtenCount == 1 { return .wait(untilNanoseconds: time) }
      case .dropRest:
        return .ended(.fellBehind(nothingSent: writtenCount == 0))
      case .done:
        return .ended(.done)
      }
    }
  }

  /// Writes the burst of `bytes` on `thread`: sleeps until each chunk is due, then hands it to
  /// `write` (see `writeDue`). `betweenWrites` runs after each sleep.
  mutating func write(
    _ bytes: [UInt8], on thread: StoppableThread, betweenWrites: () -> Void = {},
    write: (ArraySlice<UInt8>) -> Bool
  ) -> WriteOutcome {
    while true {
      switch writeDue(bytes, now: SystemClock.monotonicNanoseconds, write: write) {
      case .wait(let until):
        if thread.sleep(untilMonotonicNanoseconds: until) == .stopped { return .stopped }
        betweenWrites()
      case .ended(let outcome):
        return outcome
      }
    }
  }
}
