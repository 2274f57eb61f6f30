import Synchronization

/// Set once, when the source of the epochs has played to its end, and the actions waiting for
/// that: an action added after the latch is set runs at once, so a finish that comes first is
/// never lost.
package final class FinishLatch: Sendable {
  private struct State {
    var isSet = false
    var actions: [@Sendable () -> Void] = []
  }

  private let state = Mutex(State())

  /// A latch not set yet.
  package init() {}

  /// True once `set()` has been called.
  package var isSet: Bool { state.withLock { $0.isSet } }

  /// Sets the latch and runs the waiting actions, on the calling thread; later calls do
  /// nothing.
  package func set() {
    let actions = state.withLock { state -> [@Sendable () -> Void] in
      guard !state.isSet else { return [] }
      state.isSet = true
      defer { state.actions.removeAll() }
      return state.actions
    }
    for action in actions { action() }
  }

  /// Runs `action` when the latch is set: at once, on the calling thread, when it already is.
  package func whenSet(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state in
      if !state.isSet { state.actions.append(action) }
      return state.isSet
    }
    if runNow { action() }
  }
}
