import DeviceRuntime
import Replay
import Simulation
import Synchronization

/// The fix of the last epoch, for `status` and the `subscribe` lines: the one a simulated
/// receiver computed, or the one a replayed or passed-through receiver's bytes report, read
/// back (`SentFixDecoder`) only when someone asks: an unpaced replay sends hundreds of
/// thousands of sentences a second, which nobody may be watching.
final class LastFix: Sendable {
  /// How many epochs are kept to be read back: a receiver's fix may come in another epoch than
  /// its last one (a replay of a recording counts each read as an epoch, a ZDA read alone; a
  /// passthrough's last epoch may be a GSV burst), so `status` reads the few before too.
  static let unreadLimit = 8

  private struct State {
    /// The last epoch noted that reported a fix: its fix is copied out only when asked (a fix
    /// is some 400 bytes, and epochs are noted ten thousand times a second in a fleet).
    var epochWithFix: DueEpoch?
    /// The fix read back from the bytes of the epochs noted after it, when they reported one,
    /// in an epoch of its own: `DueEpoch` boxes its fix, so that clearing it at each epoch
    /// writes a reference, not some 400 bytes.
    var readBack: DueEpoch?
    /// The fix the last epoch reported, or the one read back after it.
    var fix: Fix? { readBack?.fix ?? epochWithFix?.fix }
    /// The epochs noted since the last read whose fix is still to be read from their bytes, at
    /// most `unreadLimit`: a ring whose oldest is at `oldestUnread` once it is full (removing
    /// the first of an array at each epoch moved the others, 2 % of an unpaced replay's time).
    var unread: [DueEpoch] = []
    /// Where the oldest unread epoch is once `unread` is full (0 before).
    var oldestUnread = 0

    /// The unread epochs, oldest first.
    var unreadInOrder: ArraySlice<DueEpoch> {
      unread[oldestUnread...] + unread[..<oldestUnread]
    }

    /// Notes an epoch to read back, in place of the oldest once `unreadLimit` are held.
    mutating func keepUnread(_ epoch: DueEpoch) {
      guard unread.count == LastFix.unreadLimit else { return unread.append(epoch) }
      unread[oldestUnread] = epoch
      oldestUnread = (oldestUnread + 1) % LastFix.unreadLimit
    }

    /// Lets go of every unread epoch.
    mutating func forgetUnread() {
      unread.removeAll(keepingCapacity: true)
      oldestUnread = 0
    }
    var decoder = SentFixDecoder()
  }

  private let state = Mutex(State())

  init() {}

  /// Notes an epoch as it falls due; returns at once.
  func note(_ epoch: DueEpoch) {
    state.withLock { state in
      if epoch.hasFix {
        // Without its packets, which only an epoch without a fix is read back from.
        var withFix = epoch
        withFix.packets = []
        state.epochWithFix = withFix
        state.readBack = nil
        state.forgetUnread()
      } else {
        state.keepUnread(epoch)
      }
    }
  }

  /// The fix the last epoch reported, or nil when it reported none (a replayed epoch of
  /// satellites only, say). The epochs noted before it since the last call are read first, in
  /// order, so that `latest` has the newest fix any of them reported.
  func ofLastEpoch() -> Fix? {
    state.withLock { state in
      guard !state.unread.isEmpty else { return state.fix }
      var fix: Fix?
      for epoch in state.unreadInOrder {
        fix = state.decoder.fix(of: epoch.packets, wireTime: epoch.time)
        if let fix { state.readBack = DueEpoch(time: epoch.time, packets: [], fix: fix) }
      }
      state.forgetUnread()
      return fix
    }
  }

  /// The latest fix reported so far, for `status`.
  var latest: Fix? {
    _ = ofLastEpoch()
    return state.withLock { $0.fix }
  }
}
