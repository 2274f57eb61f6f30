import DeviceRuntime
import Replay
import Simulation
import Synchronization

/// The fix of the last epoch, for `status` and the `subscribe` lines: the one a simulated
/// receiver computed, or the one a replayed or passed-through receiver's bytes report, read
/// back (`SentFixDecoder`) only when someone asks: an unpaced replay sends hundreds of
/// thousands of sentences a second, which nobody may be watching.
final class LastFix: Sendable {
  private struct State {
    var fix: Fix?
    /// The last epoch, when its fix is still to be read from its bytes.
    var unread: DueEpoch?
    var decoder = SentFixDecoder()
  }

  private let state = Mutex(State())

  init() {}

  /// Notes an epoch as it falls due; returns at once.
  func note(_ epoch: DueEpoch) {
    state.withLock { state in
      if let fix = epoch.fix {
        state.fix = fix
        state.unread = nil
      } else {
        state.unread = epoch
      }
    }
  }

  /// The fix the last epoch reported, or nil when it reported none (a replayed epoch of
  /// satellites only, say).
  func ofLastEpoch() -> Fix? {
    state.withLock { state in
      guard let epoch = state.unread else { return state.fix }
      state.unread = nil
      guard let fix = state.decoder.fix(of: epoch.packets, wireTime: epoch.time) else {
        return nil
      }
      state.fix = fix
      return fix
    }
  }

  /// The latest fix reported so far, for `status`.
  var latest: Fix? {
    _ = ofLastEpoch()
    return state.withLock { $0.fix }
  }
}
