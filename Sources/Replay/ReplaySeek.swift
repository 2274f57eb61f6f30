import InputFiles

/// Where a replay goes on after `seek`: the log's first epoch at or after a time from its
/// start, found by reading the log again from its start (a log is read as a stream, so a seek
/// costs a read of the log up to the target, whichever way it moves).
///
/// - An epoch stands at its offset; an untimed one at the offset of the timed one before it
///   (0 before any).
/// - A log played once and sought past its last epoch lands on that epoch (the replay then
///   ends as it would), as a route sought past its end stands at its end.
/// - A looping log (`--loop`) wraps: the target is taken modulo one pass of the log (the log
///   and the gap before it starts again), as a looping route does.
/// - A log without any time (binary packets of a protocol that carries none) can only start
///   again: `seek 0` lands on its first epoch, any other time is refused.
public enum ReplaySeek {
  /// The epoch the replay goes on with, and the source of the epochs after it.
  public struct Landing {
    /// The epoch to send first.
    public var epoch: ReplayEpoch
    /// The epochs after it: a new source of the same log, read up to `epoch`.
    public var source: any ReplayEpochSource
    /// The log time the timeline stands at from the seek on (offsets of the first pass):
    /// the target, wrapped into one pass for a looping log, or the last epoch's offset for a
    /// target past the end of a log played once.
    public var targetNanoseconds: Int64
    /// True when the target was past the end of a log played once.
    public var isPastTheEnd: Bool
  }

  /// Why a seek is refused: one line for the reply, after `seek: `.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The time is negative or not a number.
    case invalidTime(Double)
    /// The source cannot start again (epochs made up by a test).
    case cannotRestart
    /// The log has no time to seek by, and the target is not 0.
    case untimed
    /// The log gave no epoch at all.
    case empty
    /// The file could no longer be read.
    case unreadable(InputFileError)

    public var description: String {
      switch self {
      case .invalidTime:
        return "'time' expected a number of seconds from the start of the log, 0 or more"
      case .cannotRestart: return "this replay's source cannot start again"
      case .untimed:
        return "the log carries no times to seek by; only 'seek 0' (its start) applies"
      case .empty: return "the log has no epoch to seek to"
      case .unreadable(let error): return "\(error)"
      }
    }
  }

  /// The seek target in nanoseconds of `seconds`, or nil when it is negative or not a number;
  /// held at about a century.
  public static func nanoseconds(ofSeconds seconds: Double) -> Int64? {
    guard seconds.isFinite, seconds >= 0 else { return nil }
    return Int64(min(seconds * 1e9, 3.2e18).rounded())
  }

  /// Reads a new source of `source`'s log up to the first epoch at or after `seconds`.
  ///
  /// - Parameters:
  ///   - utcNowNanoseconds: for `--time now`, the UTC time (nanoseconds since 1970) at which
  ///     the timeline stands at the target: the new source begins at this less the target, so
  ///     that the time its epochs show goes on from now (a seek moves through the log, not
  ///     through the day).
  /// - Throws: a `Refusal`; `source` is not touched.
  public static func land(
    in source: any ReplayEpochSource, atSeconds seconds: Double, utcNowNanoseconds: Int64 = 0
  ) throws(Refusal) -> Landing {
    guard let target = nanoseconds(ofSeconds: seconds) else {
      throw .invalidTime(seconds)
    }
    var outcome = try scan(source, target: target, utcNowNanoseconds: utcNowNanoseconds)
    if case .wraps(let period) = outcome {
      // Once more, within one pass: a second wrap (a pass of another length) lands there.
      outcome = try scan(
        source, target: target % period, utcNowNanoseconds: utcNowNanoseconds, wraps: false)
    }
    switch outcome {
    case .landed(let landing): return landing
    case .wraps: throw .empty
    case .untimed: throw .untimed
    case .empty: throw .empty
    }
  }

  private enum Outcome {
    case landed(Landing)
    case wraps(periodNanoseconds: Int64)
    case untimed
    case empty
  }

  /// One read of a new source from the log's start to the target.
  private static func scan(
    _ original: any ReplayEpochSource, target: Int64, utcNowNanoseconds: Int64,
    wraps: Bool = true
  ) throws(Refusal) -> Outcome {
    let restarted: (any ReplayEpochSource)?
    do {
      restarted = try original.restarted()
    } catch {
      throw .unreadable(error)
    }
    guard let source = restarted else { throw .cannotRestart }
    source.begin(liveStartNanoseconds: utcNowNanoseconds - target)
    var position: Int64 = 0
    var timed = false
    var last: (epoch: ReplayEpoch, position: Int64)?
    while true {
      let next: ReplayEpoch?
      do {
        next = try source.next()
      } catch {
        throw .unreadable(error)
      }
      guard let epoch = next else { break }
      if let offset = epoch.offsetNanoseconds {
        position = offset
        timed = true
      }
      let period = epoch.loopStartNanoseconds
      if wraps, period > 0, target >= period { return .wraps(periodNanoseconds: period) }
      if position >= target {
        return .landed(
          Landing(epoch: epoch, source: source, targetNanoseconds: target, isPastTheEnd: false))
      }
      // A looping log without times would be read for ever.
      if !timed, source.statistics.loops > 0 { return .untimed }
      last = (epoch, position)
    }
    guard let last else { return .empty }
    guard timed else { return .untimed }
    return .landed(
      Landing(
        epoch: last.epoch, source: source, targetNanoseconds: last.position, isPastTheEnd: true))
  }
}
