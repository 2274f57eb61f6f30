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
public final class IOLoop: Sendable {
  /// A registered descriptor or timer, to change or remove it.
  public struct Registration: Hashable, Sendable {
    fileprivate let token: UInt64
  }

  private struct Entry: Sendable {
    var descriptor: Int32
    var handler: @Sendable (Poll.Events) -> Void
    /// A timer the loop owns: read (to clear it) before the handler runs.
    var ownsTimer: Bool
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
  private let nextToken = Atomic<UInt64>(1)
  private let keepRunning = Atomic<Bool>(true)
  private let state = Mutex(State.notStarted)
  /// Held while handlers run, so that `remove` from another thread can wait them out.
  private let dispatching = Mutex(())
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
    try register(
      descriptor, events: events,
      entry: Entry(
        descriptor: descriptor, handler: handler, ownsTimer: false))
  }

  /// Calls `handler` on the loop's thread every `intervalNanoseconds`, until `remove`.
  public func addTimer(
    everyNanoseconds intervalNanoseconds: Int64, handler: @escaping @Sendable () -> Void
  ) throws(SystemError) -> Registration {
    let timer = try systemCall("create timer") { mockgps_monotonic_timer_create() }
    do {
      try systemCall("arm timer") {
        mockgps_monotonic_timer_set_interval(timer, max(1, intervalNanoseconds))
      }
      return try register(
        timer, events: .readable,
        entry: Entry(descriptor: timer, handler: { _ in handler() }, ownsTimer: true))
    } catch {
      _ = Glibc.close(timer)
      throw error
    }
  }

  /// Makes a timer that fires only once armed (`arm(_:atMonotonicNanoseconds:)`), and then
  /// once: its descriptor exists from now on, so arming it later needs none (a process out of
  /// descriptors can still arm it).
  public func addOneShotTimer(handler: @escaping @Sendable () -> Void) throws(SystemError)
    -> Registration
  {
    let timer = try systemCall("create timer") { mockgps_monotonic_timer_create() }
    do {
      return try register(
        timer, events: .readable,
        entry: Entry(descriptor: timer, handler: { _ in handler() }, ownsTimer: true))
    } catch {
      _ = Glibc.close(timer)
      throw error
    }
  }

  /// Arms a timer of `addOneShotTimer` to fire once at a monotonic time (at once when past).
  public func arm(_ registration: Registration, atMonotonicNanoseconds deadline: Int64) {
    guard let descriptor = entries.withLock({ $0[registration.token]?.descriptor }) else { return }
    _ = mockgps_monotonic_timer_set(descriptor, max(1, deadline))
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
    _ = mockgps_epoll_control(epoll.rawValue, Control.delete, entry.descriptor, 0, 0)
    if entry.ownsTimer { _ = Glibc.close(entry.descriptor) }
    if !isLoopThread { dispatching.withLock { _ in } }
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

  /// Ends the thread and waits for it; may be called any number of times, from any thread.
  /// Registrations are left to their owners to remove.
  public func stop() {
    keepRunning.store(false, ordering: .releasing)
    wakePipe.wake()
    let thread: pthread_t? = state.withLock { state in
      defer { state = .stopped }
      if case .running(let thread) = state { return thread }
      return nil
    }
    if let thread, !SystemThread.isCurrent(thread) { SystemThread.join(thread) }
    // Timers the loop owns close with it.
    let timers = entries.withLock { entries in
      defer { entries = entries.filter { !$0.value.ownsTimer } }
      return entries.values.filter(\.ownsTimer).map(\.descriptor)
    }
    for timer in timers { _ = Glibc.close(timer) }
    // Tasks that will never run let go of what they hold (often their owner, and through it
    // this loop).
    pending.withLock { $0.removeAll() }
  }

  private func register(_ descriptor: Int32, events: Poll.Events, entry: Entry)
    throws(SystemError) -> Registration
  {
    let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    entries.withLock { $0[token] = entry }
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

  private func run() {
    loopThread.withLock { $0 = pthread_self() }
    var tokens = [UInt64](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    var timerBuffer = [UInt8](repeating: 0, count: 8)
    while keepRunning.load(ordering: .acquiring) {
      let count = mockgps_epoll_wait(epoll.rawValue, &tokens, &events, 64, -1)
      guard count > 0 else { continue }
      dispatching.withLock { _ in
        for index in 0..<Int(count) {
          let token = tokens[index]
          if token == Self.wakeToken {
            wakePipe.drain()
            continue
          }
          guard let entry = entries.withLock({ $0[token] }) else { continue }
          if entry.ownsTimer { _ = Glibc.read(entry.descriptor, &timerBuffer, 8) }
          entry.handler(Poll.Events(rawValue: Int16(truncatingIfNeeded: events[index])))
        }
        let tasks = pending.withLock { pending in
          defer { pending.removeAll() }
          return pending
        }
        for task in tasks { task() }
      }
    }
  }
}
