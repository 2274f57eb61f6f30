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

  /// Starts simulated time at `start` (nil: the wire's own time).
  ///
  /// At scale 1 simulated time runs from the start of the wire second that holds `wireNow`, so
  /// that with no `start`, or a whole-second one, epochs on whole simulated seconds fall on
  /// whole seconds of the wall clock. Scaled, a wall second holds X simulated ones: starting
  /// from the second already begun would put `start` up to X seconds in the past and skip the
  /// beginning of a route or scenario, so a scaled run starts at `start` at the next whole wire
  /// second instead (at `wireNow` itself when it is one); the moments before play the time
  /// just before `start`.
  public init(start: UTCInstant?, scale: Double, wireNow: UTCInstant) {
    let second = UTCInstant.nanosecondsPerSecond
    let intoSecond = ((wireNow.nanoseconds % second) + second) % second
    let secondStart = wireNow.adding(nanoseconds: -intoSecond)
    let origin =
      scale == 1 || intoSecond == 0 ? secondStart : secondStart.adding(nanoseconds: second)
    self.init(scale: scale, wireOrigin: origin, simulatedOrigin: start ?? origin)
  }

  /// The first wire instant, to the nanosecond, whose simulated time is `simulated` or later:
  /// the inverse of `simulated(atWire:)`, for sleeping until a simulated deadline.
  public func wire(atSimulated simulated: UTCInstant) -> UTCInstant {
    let elapsed = simulated.nanoseconds(since: simulatedOrigin)
    guard scale != 1 else { return wireOrigin.adding(nanoseconds: elapsed) }
    // `simulated(atWire:)` truncates to the nanosecond: the first wire nanosecond that reaches
    // `simulated` is the one whose exact image is `simulated` or just past it, give or take the
    // rounding of doubles, which the loops correct.
    var wire = wireOrigin.adding(
      nanoseconds: UTCInstant.clampedNanoseconds(Double(elapsed) / scale, rounding: .up))
    // A few nanoseconds at most; bounded, for the clamped ends of time.
    var steps = 0
    while steps < 64, self.simulated(atWire: wire) < simulated {
      wire = wire.adding(nanoseconds: 1)
      steps += 1
    }
    while steps < 128, self.simulated(atWire: wire.adding(nanoseconds: -1)) >= simulated {
      wire = wire.adding(nanoseconds: -1)
      steps += 1
    }
    return wire
  }

  /// The wire duration of a simulated one (a chip's processing or boot time), to the nearest
  /// nanosecond.
  public func wireNanoseconds(ofSimulated simulatedNanoseconds: Int64) -> Int64 {
    scale == 1
      ? simulatedNanoseconds : UTCInstant.clampedNanoseconds(Double(simulatedNanoseconds) / scale)
  }

  /// The simulated time at a wire instant, to the nanosecond below.
  public func simulated(atWire wire: UTCInstant) -> UTCInstant {
    let elapsed = wire.nanoseconds(since: wireOrigin)
    let scaled =
      scale == 1 ? elapsed : UTCInstant.clampedNanoseconds(Double(elapsed) * scale, rounding: .down)
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
