import DeviceRuntime
import Synchronization
import SystemIO

/// Keeps the device link in place while the emulator runs: a link that disappears is created
/// again; one that now points elsewhere belongs to someone else and is left alone, with one
/// warning.
package final class LinkGuard: Sendable {
  /// How often the link is looked at.
  static let intervalNanoseconds: Int64 = 1_000_000_000

  package let link: DeviceLink
  private let log: Log
  private let state = Mutex((lastCheck: Int64(0), warnedAboutReplacement: false))

  package init(link: DeviceLink, log: Log) {
    self.link = link
    self.log = log
  }

  /// Looks at the link if the last look was at least `intervalNanoseconds` before `now`, on the
  /// monotonic clock (a step of the system clock must not stop or hurry the checks).
  package func checkIfDue(now: Int64) {
    let due = state.withLock { state in
      guard now - state.lastCheck >= Self.intervalNanoseconds || state.lastCheck == 0 else {
        return false
      }
      state.lastCheck = now
      return true
    }
    if due { check() }
  }

  /// Restores a missing link; returns what was found.
  @discardableResult
  package func check() -> DeviceLink.Existing {
    let existing = DeviceLink.inspect(link.path)
    switch existing {
    case .link(let target, _) where target == link.target:
      break
    case .nothing:
      do {
        _ = try DeviceLink.create(at: link.path, pointingTo: link.target)
        log.warning("'\(link.path)' was removed; created it again")
      } catch {
        log.warning("'\(link.path)' was removed and cannot be created again: \(error)")
      }
    default:
      let firstTime = state.withLock { state in
        defer { state.warnedAboutReplacement = true }
        return !state.warnedAboutReplacement
      }
      if firstTime {
        log.warning("'\(link.path)' was replaced by something else; leaving it alone")
      }
    }
    return existing
  }
}
