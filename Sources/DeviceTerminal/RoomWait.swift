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
      state.withLock { state in
        state.isOver = true
        _ = state.descriptor.take()
      }
      return nil
    }
    let ended = state.withLock { state in
      state.registration = registration
      return state.isOver
    }
    // The handler ended the wait before the registration was stored: it left the removal, and
    // the duplicate, to this.
    if ended { closeDuplicate(after: registration) }
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
    // Without a registration yet (the handler ran before `init` stored it), `init` removes it
    // and closes the duplicate: closed while registered, epoll would keep watching it.
    if let registration { closeDuplicate(after: registration) }
    return true
  }

  /// Removes the registration from epoll, then closes the duplicate. A duplicate closed first
  /// stays in epoll as long as the master is open (the entry is the open file's, which the
  /// master keeps), can no longer be removed by its number, and is reported writable at every
  /// wait: the I/O thread would spin, and the next duplicate, given the same number, could not
  /// be registered.
  private func closeDuplicate(after registration: IOLoop.Registration) {
    io.remove(registration)
    _ = state.withLock { $0.descriptor.take() }
  }
}
