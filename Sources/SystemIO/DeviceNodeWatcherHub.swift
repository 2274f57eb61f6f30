import Glibc
import Synchronization

/// One `DeviceNodeWatchers` served on an `IOLoop`, shared by every device of the loop: one
/// inotify instance however many devices there are.
///
/// Each watch keeps the events read for it until its owner takes them (`readEvents(of:)`),
/// and its handler is called on the loop's thread when new ones arrive. An owner that takes
/// its events reads the instance first, so it sees what it just did to its own node; events
/// that read finds for other watches are handed to their handlers soon after, on the loop.
///
/// A watch keeps each kind of event once, in the order of first arrival, until taken: the
/// kernel merges identical events anyway, so they are a sign to look at the node, never a count.
public final class DeviceNodeWatcherHub: Sendable {
  /// What happened to a node.
  public typealias Event = DeviceNodeWatcher.Event
  /// A watch of the hub.
  public typealias WatchID = DeviceNodeWatchers.WatchID

  /// The loop whose thread reads the instance and calls the handlers.
  public let io: IOLoop
  private let state: Mutex<State>
  /// Held while handlers run, so that `remove` from another thread can wait them out.
  private let dispatching = Mutex(())
  private let registration = Mutex<IOLoop.Registration?>(nil)

  private struct Subscriber {
    var handler: (@Sendable () -> Void)?
    var unread: [Event] = []
  }

  private struct State: ~Copyable {
    /// The instance; nil once the hub is closed.
    var watchers: DeviceNodeWatchers?
    var subscribers: [WatchID: Subscriber] = [:]
    /// Watches with events their handler has not been called for, oldest first.
    var pending: [WatchID] = []
    /// True while the loop calls handlers, or has been asked to: new pending watches are
    /// served then without asking again.
    var dispatchUnderway = false
    /// Monotonic nanoseconds of the last read of the instance.
    var lastRead: Int64 = .min
    /// The watches whose `unread` is not empty: a fleet's writers ask before each epoch, and
    /// looking each subscriber up copied it (1.7 % of a fleet's instructions under callgrind).
    var withUnread: Set<WatchID> = []
  }

  /// Creates the inotify instance and registers it with `io`.
  public init(io: IOLoop) throws(SystemError) {
    let watchers = try DeviceNodeWatchers()
    let descriptor = watchers.descriptor.rawValue
    self.io = io
    state = Mutex(State(watchers: watchers))
    let added = try io.add(descriptor: descriptor, events: .readable) { [weak self] _ in
      self?.serve()
    }
    registration.withLock { $0 = added }
  }

  deinit { close() }

  /// How many watches the hub has.
  public var watchCount: Int { state.withLock { $0.subscribers.count } }

  /// Starts watching `path`. Its events are kept for `readEvents(of:)`; none is handed to a
  /// handler before `setHandler`.
  ///
  /// - Throws: `SystemError` with `EBADF` once the hub is closed.
  public func add(path: String) throws(SystemError) -> WatchID {
    try state.withLock { (state) throws(SystemError) -> WatchID in
      guard let watch = try state.watchers?.add(path: path) else {
        throw SystemError("watch", path: path, errno: EBADF)
      }
      // A node watched already gets its watch again, its events unread dropped.
      state.subscribers[watch] = Subscriber()
      state.withUnread.remove(watch)
      return watch
    }
  }

  /// Calls `handler` on the loop's thread whenever events arrive for `watch` (and now, when
  /// some are waiting), until `remove`. Does nothing for a watch removed.
  public func setHandler(of watch: WatchID, _ handler: @escaping @Sendable () -> Void) {
    let waiting = state.withLock { state -> Bool in
      guard state.subscribers[watch] != nil else { return false }
      state.subscribers[watch]?.handler = handler
      return state.subscribers[watch]?.unread.isEmpty == false
    }
    if waiting { markPending([watch]) }
  }

  /// Reads the instance, then takes the events kept for `watch`: what happened to its node
  /// since the last call. Empty for a watch removed.
  public func readEvents(of watch: WatchID) -> [Event] {
    let (events, others) = state.withLock { state -> ([Event], [WatchID]) in
      let others = Self.read(&state)
      defer {
        state.subscribers[watch]?.unread.removeAll()
        state.withUnread.remove(watch)
      }
      return (state.subscribers[watch]?.unread ?? [], others)
    }
    markPending(others.filter { $0 != watch })
    return events
  }

  /// Whether `watch` has events its owner has not taken, reading the instance first unless
  /// someone read it within the last `freshNanoseconds` (so that the devices of a fleet
  /// asking at one instant cost one read, not one each). From any thread: a writer asks
  /// before an epoch whether a client came or went that the loop has not looked at yet. The
  /// events stay for the owner (and the handlers of the watches the read found are called on
  /// the loop, as after any read).
  public func hasUnreadEvents(of watch: WatchID, freshNanoseconds: Int64) -> Bool {
    let (unread, fresh) = state.withLock { state -> (Bool, [WatchID]) in
      let now = SystemClock.monotonicNanoseconds()
      let readLately = state.lastRead != .min && now - state.lastRead < freshNanoseconds
      let fresh = readLately ? [] : Self.read(&state)
      return (!state.withUnread.isEmpty && state.withUnread.contains(watch), fresh)
    }
    markPending(fresh)
    return unread
  }

  /// Stops watching: no handler call and no event for `watch` after this returns. From
  /// another thread than the loop's, waits until no handler is running. Does nothing for a
  /// watch removed.
  public func remove(_ watch: WatchID) {
    detach(watch)
    if !io.isLoopThread { dispatching.withLock { _ in } }
  }

  /// Removes `watch` without waiting for a running handler (an owner's last resort, from a
  /// deinit that may hold locks a handler takes).
  func detach(_ watch: WatchID) {
    state.withLock { state in
      state.watchers?.remove(watch)
      state.subscribers[watch] = nil
      state.withUnread.remove(watch)
      state.pending.removeAll { $0 == watch }
    }
  }

  /// Removes the instance from the loop, drops every watch and closes the descriptor. Any
  /// number of times.
  public func close() {
    if let added = registration.withLock({ $0.take() }) { io.remove(added) }
    state.withLock { state in
      state.watchers = nil
      state.subscribers.removeAll()
      state.withUnread.removeAll()
      state.pending.removeAll()
    }
  }

  /// Reads what the kernel queued into the watches' unread events; returns the watches that
  /// got one they did not have.
  private static func read(_ state: inout State) -> [WatchID] {
    state.lastRead = SystemClock.monotonicNanoseconds()
    var fresh: [WatchID] = []
    for (watch, event) in state.watchers?.readEvents() ?? [] {
      guard let unread = state.subscribers[watch]?.unread, !unread.contains(event) else {
        continue
      }
      state.subscribers[watch]?.unread.append(event)
      state.withUnread.insert(watch)
      fresh.append(watch)
    }
    return fresh
  }

  /// The loop found the instance readable: reads it and calls the handlers.
  private func serve() {
    let fresh = state.withLock { state in Self.read(&state) }
    markPending(fresh)
  }

  /// Notes watches whose handler is due, and has the loop call them unless it is on it.
  private func markPending(_ watches: [WatchID]) {
    guard !watches.isEmpty else { return }
    let ask = state.withLock { state -> Bool in
      for watch in watches where !state.pending.contains(watch) { state.pending.append(watch) }
      defer { state.dispatchUnderway = true }
      return !state.dispatchUnderway
    }
    if ask { io.perform { [weak self] in self?.dispatch() } }
  }

  /// Calls the handler of every pending watch with events, until none is left.
  private func dispatch() {
    dispatching.withLock { _ in
      while let handler = nextHandler() { handler() }
    }
  }

  /// The handler of the next pending watch with events; nil (and the dispatch over) when
  /// none is left.
  private func nextHandler() -> (@Sendable () -> Void)? {
    state.withLock { state in
      while !state.pending.isEmpty {
        let watch = state.pending.removeFirst()
        if let subscriber = state.subscribers[watch], !subscriber.unread.isEmpty,
          let handler = subscriber.handler
        {
          return handler
        }
      }
      state.dispatchUnderway = false
      return nil
    }
  }
}

extension DeviceNodeWatcherHub {
  /// A watch owned by one device: removed (without waiting for its handler) when dropped.
  public struct Watch: ~Copyable, Sendable {
    /// The hub the watch is on.
    public let hub: DeviceNodeWatcherHub
    /// The watch's identity in the hub.
    public let id: WatchID

    /// What happened to the node since the last call (see `readEvents(of:)`).
    public func readEvents() -> [Event] {
      hub.readEvents(of: id)
    }

    deinit { hub.detach(id) }
  }

  /// Starts watching `path` for one owner; see `add(path:)`.
  public func watch(path: String) throws(SystemError) -> Watch {
    Watch(hub: self, id: try add(path: path))
  }
}
