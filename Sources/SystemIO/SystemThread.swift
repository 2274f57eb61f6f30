import CSystemShims
import Glibc

/// Starts POSIX threads, for loops that block in system calls (poll, timers) and so must stay off
/// Swift's cooperative pool.
public enum SystemThread {
  private final class Body {
    let name: String
    let run: @Sendable () -> Void
    init(_ name: String, _ run: @escaping @Sendable () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Runs `body` on a new joinable thread named `name` (at most 15 bytes are kept) and returns
  /// its handle, which must be joined exactly once.
  ///
  /// The thread runs at the ordinary priority, whatever its creator's: a new thread inherits
  /// its creator's policy, and a route load or the chip-state writer started from a thread at
  /// SCHED_FIFO held a CPU at real-time priority (a review's two loads at once left an ordinary
  /// process 4 % of a CPU and made 57 epochs late). A thread that needs real time asks for it
  /// (`raisePriorityIfAllowed`).
  ///
  /// The corresponding C functions are `pthread_create(3)`, `pthread_setname_np(3)` and
  /// `sched_setscheduler(2)`.
  public static func start(name: String, _ body: @escaping @Sendable () -> Void)
    throws(SystemError) -> pthread_t
  {
    let context = Unmanaged.passRetained(Body(name, body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        _ = mockgps_name_current_thread(body.name)
        SystemThread.useOrdinaryPriority()
        body.run()
        return nil
      }, context)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      throw SystemError("start thread \(name)", errno: result)
    }
    return thread
  }

  /// Waits until a thread started by `start` has returned.
  ///
  /// The corresponding C function is `pthread_join(3)`.
  public static func join(_ thread: pthread_t) {
    _ = pthread_join(thread, nil)
  }

  /// Lets a thread started by `start` end on its own, never joined: its resources go when it
  /// returns. Instead of `join`, exactly once.
  ///
  /// The corresponding C function is `pthread_detach(3)`.
  public static func detach(_ thread: pthread_t) {
    _ = pthread_detach(thread)
  }

  /// True when called on `thread` itself.
  public static func isCurrent(_ thread: pthread_t) -> Bool {
    pthread_equal(pthread_self(), thread) != 0
  }

  /// The calling thread as a number, never 0, to keep in an atomic and compare with the
  /// thread that reads it (`pthread_t` is an integer on Linux).
  public static var currentID: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  /// Asks for SCHED_FIFO priority 10 for the calling thread, which keeps its wake-ups within
  /// tens of microseconds under load; ignored where not permitted (not root). Returns whether
  /// the thread now has it.
  ///
  /// The corresponding C function is `sched_setscheduler(2)`.
  @discardableResult
  public static func raisePriorityIfAllowed() -> Bool {
    var parameters = sched_param()
    parameters.sched_priority = 10
    return sched_setscheduler(0, SCHED_FIFO, &parameters) == 0
  }

  /// Puts the calling thread back at the ordinary priority (SCHED_OTHER).
  ///
  /// The corresponding C function is `sched_setscheduler(2)`.
  public static func useOrdinaryPriority() {
    var parameters = sched_param()
    _ = sched_setscheduler(0, SCHED_OTHER, &parameters)
  }

  /// True when the calling thread runs at real-time priority (SCHED_FIFO).
  ///
  /// The corresponding C function is `sched_getscheduler(2)`.
  public static var runsAtRealTimePriority: Bool { sched_getscheduler(0) == SCHED_FIFO }
}
