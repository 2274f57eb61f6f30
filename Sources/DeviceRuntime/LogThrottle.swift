/// Keeps a flood of one kind of event from filling the log: the first is logged at once, then
/// at most one line a `intervalNanoseconds`, which says how many were left out before it.
///
/// Pure: the caller reads the clock and writes the log.
package struct LogThrottle: Sendable {
  /// The shortest time between two lines.
  package let intervalNanoseconds: Int64
  /// When the last line was logged; nil before the first.
  private var lastLine: Int64?
  /// Events left out since the last line.
  private var leftOut = 0

  /// A throttle of one line a second by default.
  package init(intervalNanoseconds: Int64 = 1_000_000_000) {
    self.intervalNanoseconds = intervalNanoseconds
  }

  /// Notes an event at `now`: nil when it is left out of the log, else how many were left out
  /// before it (to say in its line).
  package mutating func admit(now: Int64) -> Int? {
    if let lastLine, now - lastLine < intervalNanoseconds {
      leftOut += 1
      return nil
    }
    defer { (lastLine, leftOut) = (now, 0) }
    return leftOut
  }
}
