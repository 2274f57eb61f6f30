/// How the simulated world's time follows the wire's: `--start-time` moves it, `--time-scale`
/// speeds it up or slows it down.
///
/// Epochs fall on the simulated receiver's grid (whole simulated seconds at whole-number rates)
/// and leave on the wire when the wire clock reaches the instant that maps to them, so at a scale
/// of 10 the wire sees ten times as many epochs a second, each one simulated period apart.
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
  /// second that holds `wireNow`. Epochs fall on the simulated grid whatever the scale; with no
  /// `start`, or a whole-second one, and a scale that divides a second's worth of epochs, the
  /// wire instants they map to fall on a grid of the wall clock too (100 ms at 1 Hz × 10).
  public init(start: UTCInstant?, scale: Double, wireNow: UTCInstant) {
    let second = UTCInstant.nanosecondsPerSecond
    let origin = UTCInstant(
      nanosecondsSinceEpoch: wireNow.nanoseconds - ((wireNow.nanoseconds % second) + second)
        % second)
    self.init(scale: scale, wireOrigin: origin, simulatedOrigin: start ?? origin)
  }

  /// The first wire instant, to the nanosecond, whose simulated time is `simulated` or later:
  /// the inverse of `simulated(atWire:)`, for sleeping until a simulated deadline.
  public func wire(atSimulated simulated: UTCInstant) -> UTCInstant {
    let elapsed = simulated.nanoseconds - simulatedOrigin.nanoseconds
    guard scale != 1 else { return wireOrigin.adding(nanoseconds: elapsed) }
    // `simulated(atWire:)` rounds to the nanosecond: the first wire nanosecond that reaches
    // `simulated` is the one whose exact image is half a nanosecond short of it, give or take
    // the rounding of doubles, which the loops correct.
    var wire = wireOrigin.adding(
      nanoseconds: Int64(((Double(elapsed) - 0.5) / scale).rounded(.up)))
    while self.simulated(atWire: wire) < simulated { wire = wire.adding(nanoseconds: 1) }
    while self.simulated(atWire: wire.adding(nanoseconds: -1)) >= simulated {
      wire = wire.adding(nanoseconds: -1)
    }
    return wire
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
