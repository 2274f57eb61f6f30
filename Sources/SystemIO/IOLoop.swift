import CSystemShims
import Glibc
import Synchronization

/// One thread that serves many descriptors through `epoll`: the client input of every device,
/// control connections, network outputs. Handlers run on that thread, one at a time; they must
/// not block (read and write non-blocking descriptors, queue what cannot go now).
///
/// Registrations are level-triggered: a handler is called again as long as its descriptor
/// stays ready for the events asked. `remove` called from another thread waits until the
/// handler is not running, so that after it returns the owner may close the descriptor.
///
/// Timers are deadlines the loop keeps itself (its `epoll_wait` sleeps until the earliest,
/// to the millisecond), not descriptors: a thousand devices' housekeeping timers cost no
/// descriptor, and a timer can be made and armed by a process out of descriptors.
public final class IOLoop: Sendable {
  /// A registered descriptor or timer, to change or remove it.
  public struct Registration: Hashable, Sendable {
    fileprivate let token: UInt64
  }

  private struct Entry: Sendable {
    /// The descriptor watched, or nil for a timer (a deadline of the loop's, no descriptor).
    var descriptor: Int32?
    var handler: @Sendable (Poll.Events) -> Void
    /// A periodic timer's interval; nil for a descriptor or a one-shot timer.
    var interval: Int64? = nil
  }

  private enum State {
    case notStarted
    case running(pthread_t)
    case stopped
  }

  /// The thread's name, as `top -H` shows it.
  public let name: String
  private let epoll: FileDescriptor
  private let wakePipe: WakePipe
  private let entries = Mutex<[UInt64: Entry]>([:])
  /// The armed timers, by token.
  private let timers = Mutex(DeadlineQueue<UInt64>())
  private let nextToken = Atomic<UInt64>(1)
  private let keepRunning = Atomic<Bool>(true)
  private let state = Mutex(State.notStarted)
  /// Held while handlers run, so that `remove` from another thread can wait them out, and
  /// `exclusively` can run where no handler runs.
  private let dispatching = Mutex(())
  /// The thread that holds `dispatching` (`SystemThread.currentID`), or 0.
  private let dispatcher = Atomic<UInt>(0)
  private let pending = Mutex<[@Sendable () -> Void]>([])
  private let loopThread = Mutex<pthread_t?>(nil)

  private static let wakeToken: UInt64 = 0

  /// The operations of `epoll_ctl(2)` (Glibc's module does not carry <sys/epoll.h>). Poll's
  /// event bits (POLLIN, POLLOUT, POLLERR, POLLHUP) have the values of epoll's.
  private enum Control {
    static let add: Int32 = 1
    static let delete: Int32 = 2
    static let modify: Int32 = 3
  }

  /// Creates the loop; `start()` starts its thread.
  public init(name: String) throws(SystemError) {
    self.name = name
    epoll = FileDescriptor(owning: try systemCall("create epoll") { mockgps_epoll_create() })
    wakePipe = try WakePipe()
    let (epollDescriptor, wakeDescriptor) = (epoll.rawValue, wakePipe.readEnd.rawValue)
    try systemCall("add wake pipe to epoll") {
      mockgps_epoll_control(
        epollDescriptor, Control.add, wakeDescriptor, UInt32(Poll.Events.readable.rawValue),
        Self.wakeToken)
    }
  }

  /// Starts the thread; a stopped loop does not start again.
  public func start() throws(SystemError) {
    try state.withLock { (state) throws(SystemError) in
      guard case .notStarted = state else { return }
      state = .running(try SystemThread.start(name: name) { [self] in run() })
    }
  }

  /// Calls `handler` on the loop's thread whenever `descriptor` is ready for `events` (hang-ups
  /// and errors are always reported). The caller keeps the descriptor open until `remove`.
  public func add(
    descriptor: Int32, events: Poll.Events,
    handler: @escaping @Sendable (Poll.Events) -> Void
  ) throws(SystemError) -> Registration {
    let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    entries.withLock { $0[token] = Entry(descriptor: descriptor, handler: handler) }
    do {
      let epollDescriptor = epoll.rawValue
      try systemCall("add descriptor to epoll") {
        mockgps_epoll_control(
          epollDescriptor, Control.add, descriptor, UInt32(events.rawValue), token)
      }
    } catch {
      entries.withLock { _ = $0.removeValue(forKey: token) }
      throw error
    }
    return Registration(token: token)
  }

  /// Calls `handler` on the loop's thread every `intervalNanoseconds`, until `remove`. A round
  /// that runs late calls it once, and the next comes an interval after that round.
  public func addTimer(
    everyNanoseconds intervalNanoseconds: Int64, handler: @escaping @Sendable () -> Void
  ) -> Registration {
    let interval = max(1, intervalNanoseconds)
    let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    entries.withLock {
      $0[token] = Entry(descriptor: nil, handler: { _ in handler() }, interval: interval)
    }
    let registration = Registration(token: token)
    arm(registration, atMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + interval)
    return registration
  }

  /// Makes a timer that fires only once armed (`arm(_:atMonotonicNanoseconds:)`), and then
  /// once.
  public func addOneShotTimer(handler: @escaping @Sendable () -> Void) -> Registration {
    let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    entries.withLock { $0[token] = Entry(descriptor: nil, handler: { _ in handler() }) }
    return Registration(token: token)
  }

  /// Arms a timer to fire once at a monotonic time (at once when past), moving it if it was
  /// armed.
  public func arm(_ registration: Registration, atMonotonicNanoseconds deadline: Int64) {
    guard entries.withLock({ $0[registration.token].map { $0.descriptor == nil } }) == true
    else { return }
    let isEarliest = timers.withLock { timers in
      timers.schedule(registration.token, at: deadline)
      return timers.earliestDeadline == deadline
    }
    // The loop may be sleeping until a later deadline.
    if isEarliest && !isLoopThread { wakePipe.wake() }
  }

  /// Changes the events a registration waits for.
  public func change(_ registration: Registration, events: Poll.Events) {
    guard let descriptor = entries.withLock({ $0[registration.token]?.descriptor }) else { return }
    _ = mockgps_epoll_control(
      epoll.rawValue, Control.modify, descriptor, UInt32(events.rawValue), registration.token)
  }

  /// Stops calling the registration's handler. From another thread, waits until the handler is
  /// not running; from a handler, takes effect for every event not yet dispatched.
  public func remove(_ registration: Registration) {
    guard let entry = entries.withLock({ $0.removeValue(forKey: registration.token) }) else {
      return
    }
    if let descriptor = entry.descriptor {
      _ = mockgps_epoll_control(epoll.rawValue, Control.delete, descriptor, 0, 0)
    } else {
      timers.withLock { $0.remove(registration.token) }
    }
    if !isDispatchingHere { dispatching.withLock { _ in } }
  }

  /// True where no other handler of this loop can run: in a handler or `perform`ed task on the
  /// loop's thread, or inside `exclusively`. State the handlers own (`LoopOwned`) is touched
  /// only there.
  public var isDispatchingHere: Bool {
    dispatcher.load(ordering: .relaxed) == SystemThread.currentID
  }

  /// Runs `body` where no handler of this loop runs, on the calling thread: at once in a
  /// handler (or inside another `exclusively`), elsewhere after the round of handlers in
  /// progress (the loop waits for `body` before its next round). For another thread to touch
  /// what the handlers own, briefly: `body` must not wait for anything a handler may hold.
  public func exclusively<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if isDispatchingHere { return try body() }
    return try dispatching.withLock { (_) throws(Failure) -> Result in
      dispatcher.store(SystemThread.currentID, ordering: .relaxed)
      defer { dispatcher.store(0, ordering: .relaxed) }
      return try body()
    }
  }

  /// Runs `task` on the loop's thread soon, after the handlers of the current round.
  public func perform(_ task: @escaping @Sendable () -> Void) {
    pending.withLock { $0.append(task) }
    wakePipe.wake()
  }

  /// True on the loop's own thread.
  public var isLoopThread: Bool {
    loopThread.withLock { thread in thread.map(SystemThread.isCurrent) ?? false }
  }

  /// Ends the thread and waits for it; may be called any number of times, from any thread but
  /// from inside `exclusively` on another (the loop's thread would wait for it to return).
  /// Registrations are left to their owners to remove.
  public func stop() {
    assert(isLoopThread || !isDispatchingHere, "\(name) stopped from inside exclusively")
    keepRunning.store(false, ordering: .releasing)
    wakePipe.wake()
    let thread: pthread_t? = state.withLock { state in
      defer { state = .stopped }
      if case .running(let thread) = state { return thread }
      return nil
    }
    if let thread, !SystemThread.isCurrent(thread) { SystemThread.join(thread) }
    // Tasks that will never run let go of what they hold (often their owner, and through it
    // this loop).
    pending.withLock { $0.removeAll() }
  }

  /// The descriptors the loop owns (its epoll set and both ends of its wake pipe), closed
  /// when the loop is released; for tests that check they are.
  package var ownDescriptors: [Int32] {
    [epoll.rawValue, wakePipe.readEnd.rawValue, wakePipe.writeEnd.rawValue]
  }

  /// How long `epoll_wait` may sleep: until the earliest timer, rounded up to a millisecond
  /// (so that it never wakes before it), or without end when none is armed.
  private func sleepMilliseconds(now: Int64) -> Int32 {
    guard let deadline = timers.withLock({ $0.earliestDeadline }) else { return -1 }
    let remaining = deadline - now
    guard remaining > 0 else { return 0 }
    return Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max)))
  }

  /// Calls the handler of every timer due by `now`, periodic ones armed again.
  private func fireTimers(now: Int64) {
    while let token = timers.withLock({ $0.popDue(now: now) }) {
      guard let entry = entries.withLock({ $0[token] }) else { continue }
      if let interval = entry.interval {
        timers.withLock { $0.schedule(token, at: now + interval) }
      }
      entry.handler([])
    }
  }

  private func run() {
    loopThread.withLock { $0 = pthread_self() }
    var tokens = [UInt64](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    while keepRunning.load(ordering: .acquiring) {
      let timeout = sleepMilliseconds(now: SystemClock.monotonicNanoseconds())
      let count = mockgps_epoll_wait(epoll.rawValue, &tokens, &events, 64, timeout)
      exclusively {
        for index in 0..<Int(max(0, count)) {
          let token = tokens[index]
          if token == Self.wakeToken {
            wakePipe.drain()
            continue
          }
          guard let entry = entries.withLock({ $0[token] }) else { continue }
          entry.handler(Poll.Events(rawValue: Int16(truncatingIfNeeded: events[index])))
        }
        fireTimers(now: SystemClock.monotonicNanoseconds())
        let tasks = pending.withLock { pending in
          defer { pending.removeAll() }
          return pending
        }
        for task in tasks { task() }
      }
    }
  }
}
