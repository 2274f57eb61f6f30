import Synchronization
import SystemIO

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

  private let scheduler: DeadlineScheduler
  /// Whether the steps keep a time (see `DeadlineScheduler.add(at:keepsTime:_:)`).
  private let keepsTime: Bool
  private let lifecycle = Mutex(ScheduledStepLifecycle.created)
  /// Held by a `stop` from outside the step while it ends the state, so that a later one
  /// returns only once the state is ended. A step never takes it.
  private let stopGate = Mutex(())
  /// Touched only by the steps and, once they are over, by the `stop` that ended them (see the
  /// type's comment).
  private var state: State
  /// What a `stop` from the step itself asked to be done last with the state, when the step
  /// returns; set with `stoppingFromStep`, on the step's thread, which alone reads it while
  /// the step runs: a step that did not stop itself returns without taking a lock.
  private var ending: ((inout State) -> Void)?
  /// The thread running this step now (0: none), so that a `stop` from the step itself does
  /// not touch the state under it.
  private let stepThread = Atomic<UInt>(0)

  package init(on scheduler: DeadlineScheduler, state: State, keepsTime: Bool = true) {
    self.scheduler = scheduler
    self.state = state
    self.keepsTime = keepsTime
  }

  /// Puts `step` on the scheduler, due at `nanoseconds`; once only, never after `stop`.
  package func start(at nanoseconds: Int64, _ step: @escaping Step) {
    lifecycle.withLock { lifecycle in
      guard case .created = lifecycle else { return }
      lifecycle = .scheduled(
        scheduler.add(at: nanoseconds, keepsTime: keepsTime) { [self] now in run(step, now: now) })
    }
  }

  /// One step, under its task's lock; then, when the step stopped itself, the state's end
  /// (still under that lock, so that a `stop` from outside that waits for the step waits for
  /// it too), and nil: the task leaves the scheduler.
  private func run(_ step: Step, now: Int64) -> Int64? {
    stepThread.store(SystemThread.currentID, ordering: .relaxed)
    let next = step(&state, now)
    stepThread.store(0, ordering: .relaxed)
    guard ending != nil else { return next }
    let endsNow = lifecycle.withLock { lifecycle -> Bool in
      guard case .stoppingFromStep = lifecycle else { return false }
      lifecycle = .stopped
      return true
    }
    guard endsNow else { return next }
    ending.take()?(&state)
    return nil
  }

  /// Takes the step off the scheduler, waits until a step in progress has returned, then
  /// calls `ending` with the state: once, for the first `stop`; a later one waits until that
  /// is done. Called from the step itself, it returns at once, and the state is ended when
  /// the step returns. May be called any number of times, from any thread.
  package func stop(ending: @escaping (inout State) -> Void = { _ in }) {
    guard stepThread.load(ordering: .relaxed) != SystemThread.currentID else {
      lifecycle.withLock { lifecycle in
        guard case .scheduled(let id) = lifecycle else { return }
        lifecycle = .stoppingFromStep(id)
        self.ending = ending
      }
      return
    }
    stopGate.withLock { _ in
      let stopping = lifecycle.withLock { lifecycle -> ScheduledStepStopping in
        switch lifecycle {
        case .created:
          lifecycle = .stopped
          return .end
        case .scheduled(let id):
          lifecycle = .stopped
          return .remove(id)
        case .stoppingFromStep(let id):
          return .waitForStep(id)
        case .stopped:
          return .nothing
        }
      }
      switch stopping {
      case .end:
        ending(&state)
      case .remove(let id):
        scheduler.remove(id)
        ending(&state)
      case .waitForStep(let id):
        scheduler.remove(id)
      case .nothing:
        break
      }
    }
  }

  /// Runs the next step now.
  package func wake() {
    let id = lifecycle.withLock { lifecycle -> DeadlineScheduler.TaskID? in
      if case .scheduled(let id) = lifecycle { return id }
      return nil
    }
    if let id { scheduler.wake(id) }
  }
}

// Outside the generic class, so that a step does not look up their metadata at run time (a
// generic class's nested types are generic too: 2.5 % of a 1 Hz device's scheduler thread).

/// Where a `ScheduledStep` stands.
private enum ScheduledStepLifecycle {
  case created
  case scheduled(DeadlineScheduler.TaskID)
  /// Stopped by a `stop` called from the step itself: the step ends the state when it
  /// returns, and its task then leaves the scheduler.
  case stoppingFromStep(DeadlineScheduler.TaskID)
  case stopped
}

/// What a `stop` of a `ScheduledStep` from outside the step does, decided under the
/// lifecycle's lock.
private enum ScheduledStepStopping {
  /// Ends the state: no step ever ran.
  case end
  /// Takes the task off (waiting out a step in progress), then ends the state.
  case remove(DeadlineScheduler.TaskID)
  /// Waits out the step that stopped itself and ends the state as it returns.
  case waitForStep(DeadlineScheduler.TaskID)
  /// Nothing: an earlier `stop` has ended the state.
  case nothing
}
