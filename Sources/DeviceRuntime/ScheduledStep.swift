import Glibc
import Synchronization

/// A loop's place on its runtime's scheduler, and the state its steps carry from one to the
/// next: added once by `start`, woken early by `wake`, taken off by `stop` (which waits out a
/// step in progress). What the live and the replay loops share.
///
/// The state is confined to the steps, not locked: the scheduler runs them one at a time (each
/// under its task's lock, which orders one step's writes before the next step's reads, on
/// whichever thread runs them), and after that the one `stop` that took the step off the
/// scheduler has it, once no step runs or will. Other threads hand work to the steps (a queue
/// of their own, then `wake`); they never touch the state.
package final class ScheduledStep<State>: @unchecked Sendable {
  /// A step: given the state and the monotonic time, does what is due and returns when it
  /// next wants to run (nil: never again).
  package typealias Step = @Sendable (inout State, Int64) -> Int64?

  private enum Lifecycle {
    case created
    case scheduled(DeadlineScheduler.TaskID)
    /// Taken off by a `stop` called from the step itself: the step ends the state when it
    /// returns.
    case stoppingFromStep
    case stopped
  }

  private let scheduler: DeadlineScheduler
  private let lifecycle = Mutex(Lifecycle.created)
  /// Touched only by the steps and, once they are over, by the `stop` that ended them (see the
  /// type's comment).
  private var state: State
  /// What that `stop` does last with the state; set with `stoppingFromStep`, for the step.
  private var ending: ((inout State) -> Void)?
  /// The thread running this step now (0: none), so that a `stop` from the step itself does
  /// not touch the state under it.
  private let stepThread = Atomic<UInt>(0)

  package init(on scheduler: DeadlineScheduler, state: State) {
    self.scheduler = scheduler
    self.state = state
  }

  /// Puts `step` on the scheduler, due at `nanoseconds`; once only, never after `stop`.
  package func start(at nanoseconds: Int64, _ step: @escaping Step) {
    lifecycle.withLock { lifecycle in
      guard case .created = lifecycle else { return }
      lifecycle = .scheduled(
        scheduler.add(at: nanoseconds) { [self] now in run(step, now: now) })
    }
  }

  private func run(_ step: Step, now: Int64) -> Int64? {
    stepThread.store(Self.currentThread, ordering: .relaxed)
    let next = step(&state, now)
    stepThread.store(0, ordering: .relaxed)
    let endingNow = lifecycle.withLock { lifecycle -> Bool in
      guard case .stoppingFromStep = lifecycle else { return false }
      lifecycle = .stopped
      return true
    }
    guard endingNow else { return next }
    ending.take()?(&state)
    return nil
  }

  /// Takes the step off the scheduler, waits until a step in progress has returned, then
  /// calls `ending` with the state (once: only the first `stop` does; from the step itself,
  /// when the step returns); may be called any number of times, from any thread.
  package func stop(ending: @escaping (inout State) -> Void = { _ in }) {
    let fromStep = stepThread.load(ordering: .relaxed) == Self.currentThread
    let id = lifecycle.withLock { lifecycle -> DeadlineScheduler.TaskID?? in
      switch lifecycle {
      case .created:
        lifecycle = .stopped
        return .some(nil)
      case .scheduled(let id):
        if fromStep {
          lifecycle = .stoppingFromStep
          self.ending = ending
        } else {
          lifecycle = .stopped
        }
        return .some(id)
      case .stoppingFromStep, .stopped:
        return nil
      }
    }
    guard let id else { return }
    if let id { scheduler.remove(id) }
    if !fromStep { ending(&state) }
  }

  /// Runs the next step now.
  package func wake() {
    let id = lifecycle.withLock { lifecycle -> DeadlineScheduler.TaskID? in
      if case .scheduled(let id) = lifecycle { return id }
      return nil
    }
    if let id { scheduler.wake(id) }
  }

  private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
