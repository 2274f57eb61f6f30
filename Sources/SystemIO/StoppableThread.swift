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
  private let keepRunning = Atomic<Bool>(true)
  private let state = Mutex(State.notStarted)

  /// Creates a thread that is not started yet.
  public init(name: String) throws(SystemError) {
    self.name = name
    wakePipe = try WakePipe()
  }

  /// True until `stop()` is called; the loop checks it between steps.
  public var shouldRun: Bool { keepRunning.load(ordering: .acquiring) }

  /// Starts `loop` on a new thread; a stopped thread does not start again.
  public func start(_ loop: @escaping @Sendable () -> Void) throws(SystemError) {
    try state.withLock { (state) throws(SystemError) in
      guard case .notStarted = state else { return }
      state = .running(
        try SystemThread.start(name: name) {
          _ = mockgps_precise_timers()
          loop()
        })
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
  ///
  /// One `ppoll` of the wake pipe with the time left as its timeout: no timer to arm, one
  /// descriptor to watch (a 1 Hz device wakes about ten times a second to pace its bytes, and
  /// arming a timer descriptor and polling two cost a tenth of each wake-up under `perf`). The
  /// thread's timer slack is 1 ns (`start`), so the wait ends when it is due.
  public func sleep(untilMonotonicNanoseconds deadline: Int64) -> Wake {
    guard shouldRun else { return .stopped }
    guard deadline > SystemClock.monotonicNanoseconds() else { return .deadline }
    var pipe = pollfd(fd: wakePipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    let ready = mockgps_poll_until(&pipe, 1, deadline)
    if ready == 0 { return .deadline }
    if ready > 0 {
      precondition(pipe.revents & Int16(POLLNVAL) == 0, "\(name): its wake pipe is not open")
      wakePipe.drain()
    }
    return wakeReason()
  }

  /// Waits until one of `requests` is ready or `timeoutMilliseconds` pass (-1: no limit).
  ///
  /// - Returns: the events of each request, or nil when the wait ended because the thread was
  ///   woken or stopped.
  public func wait(for requests: [Poll.Request], timeoutMilliseconds: Int32) -> [Poll.Events]? {
    withUnsafeTemporaryAllocation(of: pollfd.self, capacity: requests.count + 1) { fds in
      for (index, request) in requests.enumerated() {
        fds[index] = pollfd(
          fd: request.rawDescriptor, events: request.events.rawValue, revents: 0)
      }
      guard pollWithWakePipe(fds, timeoutMilliseconds: timeoutMilliseconds) else { return nil }
      return fds.prefix(requests.count).map { Poll.Events(rawValue: $0.revents) }
    }
  }

  /// Polls `fds`, whose last entry this fills with the wake pipe's (the caller fills the
  /// others). False when the wait ended because the thread was woken or stopped (the pipe is
  /// drained), or poll failed (interrupted, or out of memory: a spurious wake-up, not a spin);
  /// true when the requests' events are in `fds`.
  private func pollWithWakePipe(
    _ fds: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32
  ) -> Bool {
    let pipe = fds.count - 1
    fds[pipe] = pollfd(fd: wakePipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    guard Glibc.poll(fds.baseAddress, nfds_t(fds.count), timeoutMilliseconds) >= 0 else {
      return false
    }
    if let invalid = fds.first(where: { $0.revents & Int16(POLLNVAL) != 0 }) {
      preconditionFailure("\(name): polled descriptor \(invalid.fd) is not open")
    }
    guard fds[pipe].revents == 0 else {
      wakePipe.drain()
      return false
    }
    return true
  }

  private func wakeReason() -> Wake {
    shouldRun ? .woken : .stopped
  }
}
