import Simulation

/// Decides, from the simulated clock's reading alone, what the epoch loop does next: wait for
/// the next epoch of the cadence, send it, or skip the ones it is too late for.
///
/// Pure: the loop reads the clock and sleeps; this only decides. The cadence is the simulated
/// receiver's, so epochs keep their simulated period whatever the time scale: the loop maps
/// the wire clock to simulated time before each step and each deadline back to the wire (at
/// 1 Hz and a time scale of 10, the wire sees ten epochs a second, one simulated second apart).
///
/// An epoch is sent only while it is at most `lateToleranceNanoseconds` of wire time late
/// (never more than half a period): after a pause (SIGSTOP, a loaded machine) or a forward step
/// of the clock, the epochs missed are counted and skipped, never sent in a rush, and simulated
/// time never slows down to wait for them. A deadline more than a period ahead means the clock
/// was set back: the grid is planned again from the new time instead of waiting out the step.
public struct EpochScheduler: Hashable, Sendable {
  /// The longest an epoch may start late and still be sent.
  public static let longestLatenessNanoseconds: Int64 = 250_000_000

  /// When epochs fall, in simulated time.
  public private(set) var cadence: CadencePlan
  /// Simulated seconds per wire second (`--time-scale`).
  public let timeScale: Double
  /// The epoch waited for, in simulated time; nil before the first step and after a change of
  /// cadence.
  public private(set) var nextEpoch: UTCInstant?
  /// Epochs whose time has come, each either sent (`.send`) or skipped as too late: every
  /// instant of the grid from the first epoch up to `nextEpoch`, whatever the stalls between
  /// steps. The loop accounts for each in exactly one of its counters.
  public private(set) var epochsDue = 0

  /// What to do now.
  public enum Action: Hashable, Sendable {
    /// Sleep until the simulated clock reads this instant, then step again.
    case wait(until: UTCInstant)
    /// Send the epoch scheduled at this simulated instant now.
    case send(epoch: UTCInstant)
  }

  /// The decision of one step.
  public struct Step: Hashable, Sendable {
    public var action: Action
    /// Epochs skipped because they were too late.
    public var skippedEpochs: Int
    /// True when the clock was found set back and the grid planned again.
    public var replanned: Bool
  }

  /// Creates a scheduler for `cadence` in simulated time running `timeScale` times as fast as
  /// the wire's.
  public init(cadence: CadencePlan, timeScale: Double = 1) {
    self.cadence = cadence
    self.timeScale = timeScale
  }

  /// The wire time between epochs: the simulated period divided by the time scale.
  public var wirePeriodNanoseconds: Int64 {
    timeScale == 1
      ? cadence.periodNanoseconds : Int64((Double(cadence.periodNanoseconds) / timeScale).rounded())
  }

  /// How late, in wire time, an epoch may start and still be sent: half a wire period, at most
  /// 250 ms.
  public var lateToleranceNanoseconds: Int64 {
    min(wirePeriodNanoseconds / 2, Self.longestLatenessNanoseconds)
  }

  /// `lateToleranceNanoseconds` in simulated time.
  private var simulatedLateToleranceNanoseconds: Int64 {
    timeScale == 1
      ? lateToleranceNanoseconds : Int64((Double(lateToleranceNanoseconds) * timeScale).rounded())
  }

  /// Changes the rate from the next epoch on; the new grid starts after the current time.
  ///
  /// A rate that the time scale would push past `WireRateLimit.maximumWireRateHz` is lowered
  /// to the fastest allowed.
  /// - Returns: The cadence in effect.
  @discardableResult
  public mutating func change(cadence requested: CadencePlan) -> CadencePlan {
    let cadence = WireRateLimit.limited(requested, timeScale: timeScale)
    guard cadence != self.cadence else { return cadence }
    self.cadence = cadence
    nextEpoch = nil
    return cadence
  }

  /// Decides what to do at simulated time `now` (the wire time when the scale is 1). After
  /// `.send`, the next step waits for the following epoch.
  public mutating func step(now: UTCInstant) -> Step {
    guard let next = nextEpoch else {
      return plan(after: now, skipped: 0, replanned: false)
    }
    let ahead = next.nanoseconds - now.nanoseconds
    if ahead > 0 {
      // A deadline further away than a period cannot come from the grid: the clock went back.
      if ahead > cadence.periodNanoseconds + simulatedLateToleranceNanoseconds {
        return plan(after: now, skipped: 0, replanned: true)
      }
      return Step(action: .wait(until: next), skippedEpochs: 0, replanned: false)
    }
    let late = -ahead
    guard late <= simulatedLateToleranceNanoseconds else {
      let missed = Int(late / cadence.periodNanoseconds) + 1
      epochsDue += missed
      return plan(after: now, skipped: missed, replanned: false)
    }
    epochsDue += 1
    nextEpoch = cadence.nextEpoch(after: next)
    return Step(action: .send(epoch: next), skippedEpochs: 0, replanned: false)
  }

  private mutating func plan(after now: UTCInstant, skipped: Int, replanned: Bool) -> Step {
    let next = cadence.nextEpoch(after: now)
    nextEpoch = next
    return Step(action: .wait(until: next), skippedEpochs: skipped, replanned: replanned)
  }
}
