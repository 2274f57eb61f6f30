import Synchronization

/// The route loads the process runs at once, over every way in: each is a file read on a
/// thread of its own (`ControlCommand.Delivery.offIOThread`), which holds a few files' worth of
/// memory at most. The control sockets and the panel take a slot before they start one and
/// give it back when it is done; past `maximum`, they refuse the request with `busyMessage`.
package enum RouteLoadSlots {
  /// Route files read at once in the process.
  package static let maximum = 2
  private static let taken = Atomic<Int>(0)

  /// Takes a slot; false when all `maximum` are taken (then nothing is taken). The count never
  /// passes `maximum`, even for a moment: a load asking as another ends is not refused.
  package static func tryAcquire() -> Bool {
    var current = taken.load(ordering: .acquiring)
    while current < maximum {
      let (exchanged, original) = taken.compareExchange(
        expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// Gives back a slot `tryAcquire` took.
  package static func release() {
    taken.subtract(1, ordering: .acquiringAndReleasing)
  }

  /// Slots taken now.
  package static var inUse: Int { taken.load(ordering: .acquiring) }

  /// The refusal of a `command` that found every slot taken, after `command: `.
  package static func busyMessage(command: String) -> String {
    "\(command): \(maximum) route files are loading already; try again when one is done"
  }
}
