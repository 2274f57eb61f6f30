import Synchronization

/// A loop's place on its runtime's scheduler: added once by `start`, woken early by `wake`,
/// taken off by `stop` (which waits out a step in progress). What the live and the replay
/// loops share.
package final class ScheduledStep: Sendable {
  private enum Lifecycle {
    case created
    case scheduled(DeadlineScheduler.TaskID)
    case stopped
  }

  private let scheduler: DeadlineScheduler
  private let lifecycle = Mutex(Lifecycle.created)

  package init(on scheduler: DeadlineScheduler) {
    self.scheduler = scheduler
  }

  /// Puts `step` on the scheduler, due at `nanoseconds`; once only, never after `stop`.
  /// `step` returns when it next wants to run (nil: never again).
  package func start(at nanoseconds: Int64, _ step: @escaping DeadlineScheduler.Step) {
    lifecycle.withLock { lifecycle in
      guard case .created = lifecycle else { return }
      lifecycle = .scheduled(scheduler.add(at: nanoseconds, step))
    }
  }

  /// Takes the step off the scheduler and waits until a step in progress has returned; may
  /// be called any number of times, from any thread.
  package func stop() {
    let id = lifecycle.withLock { lifecycle -> DeadlineScheduler.TaskID? in
      defer { lifecycle = .stopped }
      if case .scheduled(let id) = lifecycle { return id }
      return nil
    }
    if let id { scheduler.remove(id) }
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
