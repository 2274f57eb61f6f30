import Synchronization
import SystemIO
import Udev

/// The udev monitor of a runtime's passed-through receivers: one netlink socket per process
/// however many receivers it passes through, opened when the first subscribes, served on the
/// runtime's I/O thread, each batch of events handed to every subscriber.
package final class ReceiverHotplugHub: Sendable {
  /// A subscription, to end it.
  package struct SubscriptionID: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  /// A subscriber's handler: called on the I/O thread with the events read in one wake-up.
  package typealias Handler = @Sendable ([UdevMonitor.Event]) -> Void

  private struct State {
    /// The monitor once opened; nil before, when it cannot be opened, and once closed.
    var monitor: UdevMonitor?
    var registration: IOLoop.Registration?
    /// Why the monitor could not be opened, once tried and failed.
    var failure: String?
    var subscribers: [UInt64: Handler] = [:]
    var nextID: UInt64 = 0
    /// Set by `close()`: the monitor is not opened again.
    var closed = false
  }

  private let io: IOLoop
  private let state = Mutex(State())

  /// Creates the hub; the monitor opens with the first subscription.
  package init(io: IOLoop) {
    self.io = io
  }

  /// Calls `handler` with the hotplug events of serial devices until `unsubscribe`. Returns the
  /// subscription and, when no monitor can run here (a container without netlink), why: the
  /// subscriber then sees no event.
  package func subscribe(_ handler: @escaping Handler) -> (id: SubscriptionID, failure: String?) {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.subscribers[id] = handler
      if state.monitor == nil, state.failure == nil, !state.closed { open(&state) }
      return (SubscriptionID(value: id), state.failure)
    }
  }

  /// Ends a subscription; its handler may still be running on the I/O thread.
  package func unsubscribe(_ id: SubscriptionID) {
    _ = state.withLock { $0.subscribers.removeValue(forKey: id.value) }
  }

  /// Closes the monitor; call when the runtime stops. Any number of times.
  package func close() {
    let registration = state.withLock { state -> IOLoop.Registration? in
      state.closed = true
      state.subscribers = [:]
      defer { state.registration = nil }
      return state.registration
    }
    // Waits out a round of the I/O thread that may be reading the monitor.
    if let registration { io.remove(registration) }
    state.withLock { $0.monitor = nil }
  }

  /// Opens the monitor and registers it on the I/O thread.
  private func open(_ state: inout State) {
    let monitor: UdevMonitor
    do {
      monitor = try UdevMonitor()
    } catch {
      state.failure = "\(error)"
      return
    }
    guard monitor.descriptor >= 0 else {
      state.failure = "no descriptor"
      return
    }
    do {
      state.registration = try io.add(descriptor: monitor.descriptor, events: .readable) {
        [self] _ in dispatch()
      }
    } catch {
      state.failure = "\(error)"
      return
    }
    state.monitor = monitor
  }

  /// Reads what the monitor holds and hands it to every subscriber, outside the lock.
  private func dispatch() {
    let (events, handlers) = state.withLock { state in
      (state.monitor?.receive() ?? [], Array(state.subscribers.values))
    }
    guard !events.isEmpty else { return }
    for handler in handlers { handler(events) }
  }
}
