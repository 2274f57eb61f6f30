import Geodesy

// CONTRACT PLACEHOLDER: the motion work replaces this file (the types keep these names and
// initialisers). Nothing may ship with it.

/// How a vehicle drives an untimed route or a scripted leg.
public struct DrivingLimits: Hashable, Sendable {
  /// The cruising speed, meters per second.
  public var speedMetersPerSecond: Double
  /// The largest acceleration and deceleration, meters per second squared.
  public var accelerationMetersPerSecondSquared: Double
  /// The fastest change of course, degrees per second.
  public var turnRateDegreesPerSecond: Double

  /// Creates limits.
  public init(
    speedMetersPerSecond: Double, accelerationMetersPerSecondSquared: Double,
    turnRateDegreesPerSecond: Double
  ) {
    self.speedMetersPerSecond = speedMetersPerSecond
    self.accelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared
    self.turnRateDegreesPerSecond = turnRateDegreesPerSecond
  }
}

/// The motion of a scenario: a start, then legs that each begin at a time.
public struct ScriptedMotion: Motion {
  /// What the receiver does from a step's time on.
  public enum Leg: Hashable, Sendable {
    /// Stays where it is.
    case hold
    /// Drives along the geodesic to a position at a speed, then stays there.
    case goto(GeodeticPosition, speedMetersPerSecond: Double)
    /// Drives a route: at this speed, or at its own recorded pace when nil and the route is
    /// timed.
    case route(Route, speedMetersPerSecond: Double?)
  }

  /// A leg and when it starts.
  public struct Step: Hashable, Sendable {
    public var at: UTCInstant
    public var leg: Leg

    /// Creates a step.
    public init(at: UTCInstant, leg: Leg) {
      self.at = at
      self.leg = leg
    }
  }

  let start: GeodeticPosition

  /// Creates the motion from a start and steps in time order.
  public init(
    start: GeodeticPosition, startTime: UTCInstant, steps: [Step], limits: DrivingLimits
  ) {
    self.start = start
  }

  public func state(at time: UTCInstant) -> MotionState {
    MotionState(position: start, speedMetersPerSecond: 0, courseDegrees: 0)
  }
}
