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

  /// Writes the burst of `bytes` on `thread`: sleeps until each chunk is due, then hands it to
  /// `write`, which returns false when the bytes could not be written. `betweenWrites` runs
  /// after each sleep (a reply to a command leaves between sentences).
  ///
  /// The one place where an epoch's bytes are paced onto the wire, for live epochs and
  /// replayed ones alike.
  mutating func write(
    _ bytes: [UInt8], on thread: StoppableThread, betweenWrites: () -> Void = {},
    write: (ArraySlice<UInt8>) -> Bool
  ) -> WriteOutcome {
    while true {
      switch next(now: SystemClock.monotonicNanoseconds()) {
      case .wait(let until):
        if thread.sleep(untilMonotonicNanoseconds: until) == .stopped { return .stopped }
        betweenWrites()
      case .write(let range):
        guard write(bytes[range]) else { return .writeFailed }
      case .dropRest:
        return .fellBehind(nothingSent: writtenCount == 0)
      case .done:
        return .done
      }
    }
  }
}
