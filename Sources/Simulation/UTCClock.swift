/// The source of UTC time that everything upstream of the wire reads.
///
/// The running emulator uses the system's real-time clock; tests use a manual clock.
public protocol UTCClock: Sendable {
  /// The current UTC time.
  func now() -> UTCInstant
}
