/// The last writes to a terminal and the running total of bytes written, to tell how many had
/// been written by an earlier moment.
///
/// A pseudo-terminal counts bytes written to its master as unread (`FIONREAD` on the slave)
/// only once a kernel worker has passed them to the line discipline: microseconds on an idle
/// machine, milliseconds on a loaded one. A reading of the unread bytes is therefore trusted
/// only for what was written a while before it; what came after is counted as unseen.
public struct WriteHistory: Sendable {
  /// How many writes are kept.
  public static let capacity = 16

  /// Monotonic nanoseconds of each kept write, and the total just after it, oldest first.
  private var times: [Int64] = []
  private var totals: [Int] = []
  /// True once a write was forgotten: before the oldest kept one, the total is unknown.
  private var forgotten = false
  /// Every byte written so far.
  public private(set) var total = 0

  public init() {}

  /// Notes a write of `bytes` at monotonic time `time` (not earlier than the write before).
  public mutating func record(bytes: Int, at time: Int64) {
    total += bytes
    if times.count == Self.capacity {
      times.removeFirst()
      totals.removeFirst()
      forgotten = true
    }
    times.append(time)
    totals.append(total)
  }

  /// The bytes written at or before `time`; nil when the writes kept do not reach back that
  /// far (more than `capacity` writes since).
  public func total(atOrBefore time: Int64) -> Int? {
    guard let index = times.lastIndex(where: { $0 <= time }) else {
      return forgotten ? nil : 0
    }
    return totals[index]
  }
}
