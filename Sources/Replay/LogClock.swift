/// Turns the times read from a log into the offsets at which its epochs go out: the first timed
/// epoch at 0, each next one a gap later, where the gap is the difference of their log times.
///
/// Times wrap at midnight (or at the end of the GPS week): a time more than half a period
/// before the one before is the next day's. A gap is not believed when it goes back or is longer
/// than an hour (a receiver reset, a log spliced from two days): it is counted in `timeJumps`
/// and replaced by the gap before it (or 1 s). The offsets never go back, across loops too.
struct LogClock: Sendable {
  /// The longest gap believed.
  static let maximumGapNanoseconds: Int64 = 3600 * 1_000_000_000
  /// The gap used when there is no gap before.
  static let defaultGapNanoseconds: Int64 = 1_000_000_000

  /// The offset of the last timed epoch, nil before the first.
  private(set) var offsetNanoseconds: Int64?
  /// How far the log's own time has run since the log's first timed epoch (or since the log
  /// started again, or changed its kind of time), gaps as recorded: with the offset, it tells
  /// how far `--time now` must move the log's times.
  private(set) var logElapsedNanoseconds: Int64 = 0
  /// The last gap believed.
  private(set) var lastGapNanoseconds: Int64?
  /// Gaps not believed.
  private(set) var timeJumps = 0
  private var previous: LogTime?

  /// The gap put between the last epoch of a loop and the first of the next: the log's last
  /// believed gap, else 1 s.
  var typicalGapNanoseconds: Int64 { lastGapNanoseconds ?? Self.defaultGapNanoseconds }

  /// True when the last call to `offset(for:)` started a new reference: the first timed epoch,
  /// the first of a loop, or a change in the kind of time.
  private(set) var isAnchor = false

  /// The offset of the epoch with log time `time`.
  mutating func offset(for time: LogTime) -> Int64 {
    defer { previous = time }
    guard let previous, previous.scale == time.scale, let last = offsetNanoseconds else {
      isAnchor = true
      logElapsedNanoseconds = 0
      let offset = offsetNanoseconds.map { $0 + typicalGapNanoseconds } ?? 0
      offsetNanoseconds = offset
      return offset
    }
    isAnchor = false
    let period = time.scale.periodNanoseconds
    var gap = (time.nanoseconds - previous.nanoseconds) % period
    if gap > period / 2 { gap -= period }
    if gap < -period / 2 { gap += period }
    logElapsedNanoseconds += gap
    if gap <= 0 || gap > Self.maximumGapNanoseconds {
      timeJumps += 1
      gap = typicalGapNanoseconds
    }
    lastGapNanoseconds = gap
    offsetNanoseconds = last + gap
    return last + gap
  }

  /// Starts the log again: its next timed epoch comes one typical gap after the last.
  mutating func restart() {
    previous = nil
  }
}
