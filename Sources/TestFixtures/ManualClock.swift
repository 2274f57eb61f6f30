import Simulation
import Synchronization

/// A clock that moves only when a test moves it.
public final class ManualClock: UTCClock {
  private let current: Mutex<UTCInstant>

  /// Creates a clock showing `start`.
  public init(_ start: UTCInstant) {
    current = Mutex(start)
  }

  public func now() -> UTCInstant { current.withLock { $0 } }

  /// Moves the clock forward.
  public func advance(nanoseconds: Int64) {
    current.withLock { $0 = $0.adding(nanoseconds: nanoseconds) }
  }

  /// Sets the clock.
  public func set(_ instant: UTCInstant) {
    current.withLock { $0 = instant }
  }
}

/// A small deterministic random generator for test data: SplitMix64, the one the fault layer
/// draws its noise from.
public typealias SplitMix64 = FaultRandomNumberGenerator
