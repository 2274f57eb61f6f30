import Synchronization
import SystemIO

/// A one-time wait, on the I/O loop, for room in a pseudo-terminal's queue: `ready` is called
/// once on the I/O thread when the master is writable again (the client read), or reports a
/// hang-up or an error (the last client left). No polling: epoll wakes the I/O thread.
///
/// The master is already registered with the loop for reading while clients have the line, and
/// epoll takes a descriptor once: the wait registers a duplicate of it, closed when the wait
/// ends.
final class RoomWait: Sendable {
  private struct State: ~Copyable {
    /// The duplicate of the master, until the wait ends.
    var descriptor: FileDescriptor?
    var registration: IOLoop.Registration?
    var isOver = false
  }

  private let io: IOLoop
  private let state: Mutex<State>

  /// Starts waiting for room in the queue of `masterDescriptor` (borrowed: duplicated); nil
  /// when the duplicate cannot be made or registered (the caller then looks again later).
  init?(io: IOLoop, masterDescriptor: Int32, ready: @escaping @Sendable () -> Void) {
    self.io = io
    let duplicate: FileDescriptor
    do {
      duplicate = try FileDescriptor.duplicate(masterDescriptor)
    } catch {
      return nil
    }
    let raw = duplicate.rawValue
    state = Mutex(State(descriptor: duplicate))
    let registration = try? io.add(descriptor: raw, events: .writable) { [self] _ in
      guard end() else { return }
      ready()
    }
    guard let registration else {
      cancel()
      return nil
    }
    let ended = state.withLock { state in
      state.registration = registration
      return state.isOver
    }
    // The handler may have run before the registration was stored.
    if ended { io.remove(registration) }
  }

  /// Stops waiting: `ready` is not called after this returns (unless it is running). Any
  /// number of times, from any thread.
  func cancel() {
    _ = end()
  }

  /// Ends the wait once: removes the registration and closes the duplicate; true for the
  /// call that ended it.
  private func end() -> Bool {
    let (registration, ended) = state.withLock { state -> (IOLoop.Registration?, Bool) in
      guard !state.isOver else { return (nil, false) }
      state.isOver = true
      return (state.registration.take(), true)
    }
    guard ended else { return false }
    if let registration { io.remove(registration) }
    // Removed from epoll first: the descriptor is closed only once nothing watches it.
    _ = state.withLock { $0.descriptor.take() }
    return true
  }
}
