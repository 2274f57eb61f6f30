import CSystemShims
import Glibc
import Synchronization

/// A thread running a loop that waits in `poll`: its waits end at once when it is woken or
/// stopped, and its sleeps are absolute deadlines on the monotonic clock, which no one can set.
///
/// `stop()` may be called any number of times, from any thread: the first call asks the loop to
/// end and joins it, the others return at once.
public final class StoppableThread: Sendable {
  private enum State {
    case notStarted
    case running(pthread_t)
    case stopped
  }

  /// How a wait ended.
  public enum Wake: Hashable, Sendable {
    /// The deadline came.
    case deadline
    /// `wake()` was called: there is work, the deadline has not come.
    case woken
    /// `stop()` was called.
    case stopped
  }

  /// The thread's name, as `top -H` and `ps -T` show it.
  public let name: String
  private let wakePipe: WakePipe
  private let timer: FileDescriptor
  private let keepRunning = Atomic<Bool>(true)
  private let state = Mutex(State.notStarted)

  /// Creates a thread that is not started yet.
  public init(name: String) throws(SystemError) {
    self.name = name
    wakePipe = try WakePipe()
    timer = FileDescriptor(
      owning: try systemCall("create timer") { mockgps_monotonic_timer_create() })
  }

  /// True until `stop()` is called; the loop checks it between steps.
  public var shouldRun: Bool { keepRunning.load(ordering: .acquiring) }

  /// Starts `loop` on a new thread; a stopped thread does not start again.
  public func start(_ loop: @escaping @Sendable () -> Void) throws(SystemError) {
    try state.withLock { (state) throws(SystemError) in
      guard case .notStarted = state else { return }
      state = .running(try SystemThread.start(name: name, loop))
    }
  }

  /// Ends a wait of the loop early with `.woken`, for example because there is output to send.
  public func wake() {
    wakePipe.wake()
  }

  /// Asks the loop to end, wakes it, and waits until its thread has returned.
  public func stop() {
    keepRunning.store(false, ordering: .releasing)
    wakePipe.wake()
    let thread: pthread_t? = state.withLock { state in
      defer { state = .stopped }
      if case .running(let thread) = state { return thread }
      return nil
    }
    if let thread, !SystemThread.isCurrent(thread) { SystemThread.join(thread) }
  }

  /// Sleeps until the monotonic clock reads `deadline`, or until woken or stopped.
  public func sleep(untilMonotonicNanoseconds deadline: Int64) -> Wake {
    guard shouldRun else { return .stopped }
    guard deadline > SystemClock.monotonicNanoseconds() else { return .deadline }
    guard mockgps_monotonic_timer_set(timer.rawValue, deadline) == 0 else {
      // Only EINVAL is possible here, for a deadline beyond what the kernel takes: wait without.
      return wait(for: [], timeoutMilliseconds: 1000) == nil ? wakeReason() : .deadline
    }
    // Arming the timer again clears its expiration, so it is never read: one call fewer a wait.
    guard let fired = waitForTimer() else { return wakeReason() }
    return fired ? .deadline : .woken
  }

  /// Waits for the timer or a wake-up as `wait(for: [timer's request])` does, with the two
  /// requests on the stack instead of four arrays a sleep (the scheduler sleeps between any two
  /// steps: those arrays were 6 % of a 1 Hz device's scheduler thread under `perf`).
  ///
  /// - Returns: whether the timer fired, or nil when the wait ended because the thread was
  ///   woken or stopped (or poll failed: a spurious wake-up, not a spin).
  private func waitForTimer() -> Bool? {
    let readable = Int16(POLLIN)
    let revents = withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { fds in
      fds[0] = pollfd(fd: timer.rawValue, events: readable, revents: 0)
      fds[1] = pollfd(fd: wakePipe.readEnd.rawValue, events: readable, revents: 0)
      return Glibc.poll(fds.baseAddress, 2, -1) < 0 ? nil : (fds[0].revents, fds[1].revents)
    }
    guard let (timerEvents, wakeEvents) = revents else { return nil }
    precondition(
      (timerEvents | wakeEvents) & Int16(POLLNVAL) == 0, "\(name): its timer or pipe is not open")
    if wakeEvents != 0 {
      wakePipe.drain()
      return nil
    }
    return timerEvents & readable != 0
  }

  /// Waits until one of `requests` is ready or `timeoutMilliseconds` pass (-1: no limit).
  ///
  /// - Returns: the events of each request, or nil when the wait ended because the thread was
  ///   woken or stopped.
  public func wait(for requests: [Poll.Request], timeoutMilliseconds: Int32) -> [Poll.Events]? {
    let all = requests + [wakePipe.readEnd.pollRequest(.readable)]
    let ready: [Poll.Events]
    do {
      ready = try Poll.wait(all, timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      // poll fails only for lack of memory; treat it as a spurious wake-up, not a spin.
      return nil
    }
    if let invalid = ready.firstIndex(where: { $0.contains(.invalid) }) {
      preconditionFailure("\(name): polled descriptor \(all[invalid].rawDescriptor) is not open")
    }
    if ready.last?.isEmpty == false {
      wakePipe.drain()
      return nil
    }
    return Array(ready.dropLast())
  }

  private func wakeReason() -> Wake {
    shouldRun ? .woken : .stopped
  }
}
