/// How the simulated world's time follows the wire's: `--start-time` moves it, `--time-scale`
/// speeds it up or slows it down.
///
/// Epochs leave on the wire's schedule (whole UTC seconds of the real clock); the time written in
/// them is the simulated time of that instant, so replay, pause and seek can differ from the wire.
public struct SimulatedTime: Hashable, Sendable {
  /// Simulated seconds per wire second.
  public var scale: Double
  /// A wire instant and the simulated instant it maps to.
  public var wireOrigin: UTCInstant
  public var simulatedOrigin: UTCInstant

  /// Real time: the simulated time is the wire time.
  public static let realTime = SimulatedTime(
    scale: 1, wireOrigin: UTCInstant(nanosecondsSinceEpoch: 0),
    simulatedOrigin: UTCInstant(nanosecondsSinceEpoch: 0))

  /// Creates a mapping that sends `wireOrigin` to `simulatedOrigin`.
  public init(scale: Double, wireOrigin: UTCInstant, simulatedOrigin: UTCInstant) {
    self.scale = scale
    self.wireOrigin = wireOrigin
    self.simulatedOrigin = simulatedOrigin
  }

  /// Starts simulated time at `start` (nil: the wire's own time) at the start of the wire
  /// second that holds `wireNow`, so that epochs on whole wire seconds stay on whole simulated
  /// seconds when `start` is a whole second and the scale a whole number.
  public init(start: UTCInstant?, scale: Double, wireNow: UTCInstant) {
    let second = UTCInstant.nanosecondsPerSecond
    let origin = UTCInstant(
      nanosecondsSinceEpoch: wireNow.nanoseconds - ((wireNow.nanoseconds % second) + second)
        % second)
    self.init(scale: scale, wireOrigin: origin, simulatedOrigin: start ?? origin)
  }

  /// The simulated time at a wire instant.
  public func simulated(atWire wire: UTCInstant) -> UTCInstant {
    let elapsed = wire.nanoseconds - wireOrigin.nanoseconds
    let scaled = scale == 1 ? elapsed : Int64((Double(elapsed) * scale).rounded())
    return simulatedOrigin.adding(nanoseconds: scaled)
  }
}

/// A clock whose time is another clock's, mapped through a `SimulatedTime`.
public struct ScaledClock: UTCClock {
  /// The clock of the wire.
  public var base: any UTCClock
  /// The mapping to simulated time.
  public var time: SimulatedTime

  /// Creates a clock reading `base` through `time`.
  public init(base: any UTCClock, time: SimulatedTime) {
    self.base = base
    self.time = time
  }

  public func now() -> UTCInstant { time.simulated(atWire: base.now()) }
}
