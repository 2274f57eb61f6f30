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
  /// What `wake()` and `stop()` write to (internal for the tests that look for its ends).
  let wakePipe: WakePipe
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

  /// Sleeps as `sleep(untilMonotonicNanoseconds:)`, or until one of `requests` is ready (a
  /// deadline already past only looks at them): then `.woken`, with each request's events in
  /// order. The caller keeps their descriptors open until the call returns.
  public func sleep(
    untilMonotonicNanoseconds deadline: Int64, orUntilReady requests: [Poll.Request]
  )
    -> (wake: Wake, events: [Poll.Events])
  {
    guard !requests.isEmpty else { return (sleep(untilMonotonicNanoseconds: deadline), []) }
    guard shouldRun else { return (.stopped, []) }
    let due = deadline <= SystemClock.monotonicNanoseconds()
    let armed = !due && mockgps_monotonic_timer_set(timer.rawValue, deadline) == 0
    // Without the timer (a deadline beyond what the kernel takes), a second at most, as above.
    let timeout: Int32 = due ? 0 : armed ? -1 : 1000
    return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: requests.count + 2) { fds in
      fds[0] = pollfd(fd: timer.rawValue, events: armed ? Int16(POLLIN) : 0, revents: 0)
      for (index, request) in requests.enumerated() {
        fds[index + 1] = pollfd(
          fd: request.rawDescriptor, events: request.events.rawValue, revents: 0)
      }
      guard pollWithWakePipe(fds, timeoutMilliseconds: timeout) else { return (wakeReason(), []) }
      let events = (0..<requests.count).map { Poll.Events(rawValue: fds[$0 + 1].revents) }
      if events.contains(where: { !$0.isEmpty }) { return (.woken, events) }
      return (.deadline, events)
    }
  }

  /// Waits for the timer or a wake-up, with the two requests on the stack (the scheduler sleeps
  /// between any two steps: arrays here were 6 % of a 1 Hz device's scheduler thread under
  /// `perf`).
  ///
  /// - Returns: whether the timer fired, or nil when the wait ended because the thread was
  ///   woken or stopped.
  private func waitForTimer() -> Bool? {
    withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { fds in
      fds[0] = pollfd(fd: timer.rawValue, events: Int16(POLLIN), revents: 0)
      guard pollWithWakePipe(fds, timeoutMilliseconds: -1) else { return nil }
      return fds[0].revents & Int16(POLLIN) != 0
    }
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
