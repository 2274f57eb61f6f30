import Simulation
import SystemIO

/// The system's real-time clock as the emulator's UTC clock.
public struct SystemUTCClock: UTCClock {
  /// Creates the clock.
  public init() {}

  public func now() -> UTCInstant {
    UTCInstant(nanosecondsSinceEpoch: SystemClock.nanosecondsSinceEpoch())
  }
}
