import Synchronization

/// A reference to an object made after the closures that call it, held weakly: the device's
/// callbacks reach the loop that owns the device without a cycle, so a stopped emulator is
/// freed with its descriptors.
package final class LateReference<Object: AnyObject & Sendable>: Sendable {
  private struct Weak: Sendable {
    weak var object: Object?
  }

  private let reference = Mutex(Weak())

  package init() {}

  /// Points the reference at `object`.
  package func set(_ object: Object) {
    reference.withLock { $0.object = object }
  }

  /// Calls `body` with the object, or with nil before `set` or once the object is gone.
  package func withLock<Result>(_ body: (Object?) -> Result) -> Result {
    reference.withLock { body($0.object) }
  }
}
