import Synchronization

/// The route loads the process runs at once, over every way in: each is a file read on a
/// thread of its own (`ControlCommand.Delivery.offIOThread`), which holds a few files' worth of
/// memory at most. The control sockets and the panel take a slot before they start one and
/// give it back when it is done; past `maximum`, they refuse the request with `busyMessage`.
///
/// Loads asked by other users than the process's own (control clients of its group) take at
/// most `maximumForOthers` slots together: one is kept for the owner (root's `ctl`, the panel),
/// whom a client that keeps loading large files would otherwise lock out.
package enum RouteLoadSlots {
  /// Route files read at once in the process.
  package static let maximum = 2
  /// Of those, route files read at once for other users than the process's.
  package static let maximumForOthers = maximum - 1

  /// The slots taken, by whom.
  package struct Count: Hashable, Sendable {
    package var taken = 0
    package var takenForOthers = 0

    package init() {}

    /// Takes a slot for the owner or for another user; false (nothing taken) when none is left
    /// for them.
    package mutating func take(forOwner: Bool) -> Bool {
      guard taken < maximum, forOwner || takenForOthers < maximumForOthers else { return false }
      taken += 1
      if !forOwner { takenForOthers += 1 }
      return true
    }

    /// Gives back a slot `take` took for the same kind of user.
    package mutating func give(forOwner: Bool) {
      taken -= 1
      if !forOwner { takenForOthers -= 1 }
    }
  }

  private static let count = Mutex(Count())

  /// Takes a slot for the process's own user (`forOwner`) or another; false when none is left
  /// for them (then nothing is taken). A load asking as another ends is not refused.
  package static func tryAcquire(forOwner: Bool) -> Bool {
    count.withLock { $0.take(forOwner: forOwner) }
  }

  /// Gives back a slot `tryAcquire` took, with the same `forOwner`.
  package static func release(forOwner: Bool) {
    count.withLock { $0.give(forOwner: forOwner) }
  }

  /// Slots taken now.
  package static var inUse: Int { count.withLock { $0.taken } }

  /// The refusal of a `command` that found no slot left, after `command: `: every slot taken,
  /// or (`forOwner` false) the share of other users than the process's.
  package static func busyMessage(command: String, forOwner: Bool = true) -> String {
    let taken = inUse
    guard !forOwner, taken < maximum else {
      return "\(command): \(maximum) route files are loading already; try again when one is done"
    }
    return "\(command): a route file another user than mockgps's asked for is loading already; "
      + "try again when it is done"
  }
}
