import DeviceRuntime
import Glibc
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
  private let state = Mutex(
    (lastCheck: Int64(0), warnedAboutReplacement: false, confirmed: FileEntryStamp?.none))

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
    guard due else { return }
    // The entry last found to be the link, still there (same inode, change time and size): a
    // symbolic link's target never changes, so it still points where it did (one `lstat`,
    // not three calls).
    if let confirmed = state.withLock({ $0.confirmed }),
      FileEntryStamp.ofEntry(at: link.path, kind: S_IFLNK) == confirmed
    {
      return
    }
    check()
  }

  /// Restores a missing link; returns what was found.
  @discardableResult
  package func check() -> DeviceLink.Existing {
    // Taken before the look: if the link is replaced in between, the next check looks again.
    let identity = FileEntryStamp.ofEntry(at: link.path, kind: S_IFLNK)
    let existing = DeviceLink.inspect(link.path)
    let isOurs = if case .link(let target, _) = existing { target == link.target } else { false }
    state.withLock { $0.confirmed = isOurs ? identity : nil }
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
