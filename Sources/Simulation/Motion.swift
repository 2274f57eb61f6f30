import Geodesy

/// Where the receiver is and how it moves at an instant.
public struct MotionState: Hashable, Sendable {
  public var position: GeodeticPosition
  /// Speed over ground, meters per second.
  public var speedMetersPerSecond: Double
  /// Course over ground, degrees true.
  public var courseDegrees: Double
  /// Vertical speed, meters per second, positive up.
  public var climbMetersPerSecond: Double

  /// Creates a motion state.
  public init(
    position: GeodeticPosition, speedMetersPerSecond: Double, courseDegrees: Double,
    climbMetersPerSecond: Double = 0
  ) {
    self.position = position
    self.speedMetersPerSecond = speedMetersPerSecond
    self.courseDegrees = courseDegrees
    self.climbMetersPerSecond = climbMetersPerSecond
  }
}

/// A source of the receiver's position over time: fixed, a route, a scenario.
public protocol Motion: Sendable {
  /// The state at `time`.
  func state(at time: UTCInstant) -> MotionState
  /// The simulated time after which the motion has nothing more to play (a route run `--once`),
  /// or nil when it goes on for ever.
  var endTime: UTCInstant? { get }
  /// The start of the stretch that `time` is in (at or before `time`): from then to `time` the
  /// motion is one continuous path, which a change made on request (a new position, a seek)
  /// ends. Reports that hold for a while, such as the sky of a second (`SkyOfTheSecond`), are
  /// taken no earlier. A stretch may also start where the path goes on unbroken (every control
  /// request starts one, `ControlledMotion`): that only moves those reports to its start.
  func stretchStart(at time: UTCInstant) -> UTCInstant
}

extension Motion {
  public var endTime: UTCInstant? { nil }
  /// One stretch since the earliest instant: no change on request.
  public func stretchStart(at time: UTCInstant) -> UTCInstant {
    UTCInstant(nanosecondsSinceEpoch: .min)
  }
}

/// A receiver standing still at one place.
public struct FixedPosition: Motion {
  public var position: GeodeticPosition

  /// Creates a motion that never moves from `position`.
  public init(_ position: GeodeticPosition) {
    self.position = position
  }

  public func state(at time: UTCInstant) -> MotionState {
    MotionState(position: position, speedMetersPerSecond: 0, courseDegrees: 0)
  }
}
