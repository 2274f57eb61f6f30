import Synchronization
import SystemIO

/// The descriptors a scheduler's thread waits on with its sleep, each until it is writable:
/// a write that found its client's queue full is woken by the thread that runs it, at once,
/// when the client has read (or left), with no other thread in between.
///
/// A watch holds its own duplicate of the descriptor, so that its number stays valid whatever
/// the device does meanwhile; the duplicate is closed only by the thread that polls (`lookUp`),
/// never under a poll in progress: a watch cancelled meanwhile waits in `closing` for the next
/// look.
package final class DescriptorWatches: Sendable {
  /// A watch, to cancel it.
  package struct ID: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  private final class Watch: Sendable {
    let descriptor: FileDescriptor
    let ready: @Sendable () -> Void

    init(descriptor: consuming FileDescriptor, ready: @escaping @Sendable () -> Void) {
      self.descriptor = descriptor
      self.ready = ready
    }
  }

  private struct State {
    var watches: [UInt64: Watch] = [:]
    /// Watches cancelled or over, whose duplicates the polling thread closes at its next look.
    var closing: [Watch] = []
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  package init() {}

  /// Calls `ready` once, on the polling thread, when `descriptor` (a duplicate, which the
  /// watch closes) is writable, hung up or failed.
  package func add(_ descriptor: consuming FileDescriptor, ready: @escaping @Sendable () -> Void)
    -> ID
  {
    let watch = Watch(descriptor: descriptor, ready: ready)
    return state.withLock { state in
      let id = state.nextID
      state.nextID &+= 1
      state.watches[id] = watch
      return ID(value: id)
    }
  }

  /// Ends a watch: its `ready` is not called after this returns (unless it is running). Any
  /// number of times, from any thread. True when it ended a watch whose duplicate waits for
  /// the polling thread's next look to be closed (wake it: the duplicate keeps the descriptor's
  /// file open, a pseudo-terminal's master with its client's end).
  @discardableResult
  package func cancel(_ id: ID) -> Bool {
    state.withLock { state in
      guard let watch = state.watches.removeValue(forKey: id.value) else { return false }
      state.closing.append(watch)
      return true
    }
  }

  /// Ends every watch and closes their duplicates, once no thread polls them (its scheduler
  /// has stopped).
  package func closeAll() {
    // The watches taken out close their duplicates as they go, outside the lock.
    _ = state.withLock { state in
      defer { (state.watches, state.closing) = ([:], []) }
      return (state.watches, state.closing)
    }
  }

  /// True when no watch is waiting.
  package var isEmpty: Bool { state.withLock { $0.watches.isEmpty } }

  /// What the polling thread waits on now, having closed the duplicates of the watches that
  /// ended since its last look. Only the polling thread calls it.
  package func lookUp() -> [(id: ID, request: Poll.Request)] {
    // The ended watches' duplicates close as the second element goes, outside the lock.
    let (requests, _) = state.withLock { state in
      let requests = state.watches.map { id, watch in
        (ID(value: id), Poll.Request(rawDescriptor: watch.descriptor.rawValue, events: .writable))
      }
      defer { state.closing.removeAll() }
      return (requests, state.closing)
    }
    return requests
  }

  /// Ends the watches among `looked` whose `events` show them ready (in the same order), and
  /// calls their `ready`, on the polling thread.
  package func fire(_ looked: [(id: ID, request: Poll.Request)], events: [Poll.Events]) {
    let ready = state.withLock { state in
      zip(looked, events).compactMap { entry, events -> Watch? in
        guard !events.isEmpty, let watch = state.watches.removeValue(forKey: entry.id.value)
        else { return nil }
        return watch
      }
    }
    for watch in ready { watch.ready() }
  }

  /// Looks at every watch without waiting and fires those ready: the polling of a thread-less
  /// (manual) scheduler, at each run.
  package func lookNow() {
    let looked = lookUp()
    guard !looked.isEmpty,
      let events = try? Poll.wait(looked.map(\.request), timeoutMilliseconds: 0)
    else { return }
    fire(looked, events: events)
  }
}
