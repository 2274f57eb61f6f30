import Simulation

/// Decides, from the wire clock's reading alone, what the epoch loop does next: wait for the
/// next epoch of the cadence, send it, or skip the ones it is too late for.
///
/// Pure: the loop reads the clock and sleeps; this only decides. An epoch is sent only while it
/// is at most `lateToleranceNanoseconds` late (never more than half a period): after a pause
/// (SIGSTOP, a loaded machine) or a forward step of the clock, the epochs missed are counted and
/// skipped, never sent in a rush. A deadline more than a period ahead means the clock was set
/// back: the grid is planned again from the new time instead of waiting out the step.
public struct EpochScheduler: Hashable, Sendable {
  /// The longest an epoch may start late and still be sent.
  public static let longestLatenessNanoseconds: Int64 = 250_000_000

  /// When epochs fall.
  public private(set) var cadence: CadencePlan
  /// The epoch waited for; nil before the first step and after a change of cadence.
  public private(set) var nextEpoch: UTCInstant?

  /// What to do now.
  public enum Action: Hashable, Sendable {
    /// Sleep until the wire clock reads this instant, then step again.
    case wait(until: UTCInstant)
    /// Send the epoch scheduled at this instant now.
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

  /// Creates a scheduler for `cadence`.
  public init(cadence: CadencePlan) {
    self.cadence = cadence
  }

  /// How late an epoch may start and still be sent: half a period, at most 250 ms.
  public var lateToleranceNanoseconds: Int64 {
    min(cadence.periodNanoseconds / 2, Self.longestLatenessNanoseconds)
  }

  /// Changes the rate from the next epoch on; the new grid starts after the current time.
  public mutating func change(cadence: CadencePlan) {
    guard cadence != self.cadence else { return }
    self.cadence = cadence
    nextEpoch = nil
  }

  /// Decides what to do at wire time `now`. After `.send`, the next step waits for the
  /// following epoch.
  public mutating func step(now: UTCInstant) -> Step {
    guard let next = nextEpoch else {
      return plan(after: now, skipped: 0, replanned: false)
    }
    let ahead = next.nanoseconds - now.nanoseconds
    if ahead > 0 {
      // A deadline further away than a period cannot come from the grid: the clock went back.
      if ahead > cadence.periodNanoseconds + lateToleranceNanoseconds {
        return plan(after: now, skipped: 0, replanned: true)
      }
      return Step(action: .wait(until: next), skippedEpochs: 0, replanned: false)
    }
    let late = -ahead
    guard late <= lateToleranceNanoseconds else {
      let missed = Int(late / cadence.periodNanoseconds) + 1
      return plan(after: now, skipped: missed, replanned: false)
    }
    nextEpoch = cadence.nextEpoch(after: next)
    return Step(action: .send(epoch: next), skippedEpochs: 0, replanned: false)
  }

  private mutating func plan(after now: UTCInstant, skipped: Int, replanned: Bool) -> Step {
    let next = cadence.nextEpoch(after: now)
    nextEpoch = next
    return Step(action: .wait(until: next), skippedEpochs: skipped, replanned: replanned)
  }
}
