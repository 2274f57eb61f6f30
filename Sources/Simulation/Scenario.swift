import Geodesy

/// A scripted test run: where and when the receiver starts, and a timeline of actions: moves
/// (hold, goto, route) and faults (fix mode, DOP, satellites, jumps, noise, clock, cold start,
/// silence, corruption).
///
/// A scenario is pure data; `compiled(sky:geoidSeparationMeters:)` turns it into the scene and
/// wire faults a run plays. The same scenario always gives the same run: the noise and the
/// corruption are drawn from `seed` and the simulated time only.
public struct Scenario: Hashable, Sendable {
  /// The driving limits of a scenario that gives none: 10 m/s, 2 m/s², 30°/s.
  public static let defaultLimits = DrivingLimits(
    speedMetersPerSecond: 10, accelerationMetersPerSecondSquared: 2,
    turnRateDegreesPerSecond: 30)

  /// The simulated time the run starts at.
  public var startTime: UTCInstant
  /// Where the receiver is at the start.
  public var startPosition: GeodeticPosition
  /// The seed of every random draw of the run.
  public var seed: UInt64
  /// How the vehicle drives: the speed of legs that give none, acceleration and turn rate.
  public var limits: DrivingLimits
  /// The events in time order (equal times keep their order).
  public var timeline: [Event]

  /// Creates a scenario.
  public init(
    startTime: UTCInstant, startPosition: GeodeticPosition, seed: UInt64 = 0,
    limits: DrivingLimits = Scenario.defaultLimits, timeline: [Event] = []
  ) {
    self.startTime = startTime
    self.startPosition = startPosition
    self.seed = seed
    self.limits = limits
    self.timeline = timeline
  }

  /// One action of the timeline and when it happens.
  public struct Event: Hashable, Sendable {
    /// When the action starts.
    public var at: UTCInstant
    /// What happens.
    public var action: Action
    /// How long a fault lasts, nanoseconds; nil for until the next action of the same kind.
    /// Moves and cold starts have no duration.
    public var durationNanoseconds: Int64?

    /// Creates an event.
    public init(at: UTCInstant, _ action: Action, durationNanoseconds: Int64? = nil) {
      self.at = at
      self.action = action
      self.durationNanoseconds = durationNanoseconds
    }
  }

  /// What the receiver reports as its fix mode, as a scenario names it.
  public enum FixSetting: String, Hashable, Sendable, CaseIterable {
    /// No fix: GGA quality 0, RMC status V and mode N, GSA fix type 1.
    case none
    /// At most a 2D fix.
    case twoDimensional = "2d"
    /// The fix the satellites allow, without corrections: the normal state.
    case threeDimensional = "3d"
    /// A fix with differential corrections: GGA quality 2, mode D.
    case dgps
    /// RTK with float ambiguities: GGA quality 5, mode F.
    case rtkFloat = "rtk-float"
    /// RTK with fixed ambiguities: GGA quality 4, mode R.
    case rtkFixed = "rtk-fixed"
  }

  /// A change of the reported DOPs.
  public enum DOPChange: Hashable, Sendable {
    /// Every DOP multiplied by a factor.
    case scale(Double)
    /// These DOPs instead of the sky's.
    case values(horizontal: Double, vertical: Double, position: Double)
  }

  /// One action of a timeline.
  public enum Action: Hashable, Sendable {
    /// Stop and stay where the receiver is.
    case hold
    /// Drive along the geodesic to a position at a speed (the limits' speed when nil), then stay.
    case goto(GeodeticPosition, speedMetersPerSecond: Double?)
    /// Drive a route: at a speed, or at its own recorded pace when nil and the route is timed.
    case route(Route, speedMetersPerSecond: Double?)
    /// Report a fix mode (and corrections).
    case fix(FixSetting)
    /// Change the DOPs.
    case dop(DOPChange)
    /// Use at most this many satellites; the others stay in view, unused.
    case satellites(usedCount: Int)
    /// Every signal lost (a tunnel, a garage): no satellite in view, no fix; when it ends the
    /// receiver locks the carriers again, each with a cycle slip.
    case outage
    /// A sudden position error (a glitch, spoofing): meters north, east and up.
    case jump(northMeters: Double, eastMeters: Double, upMeters: Double)
    /// Gauss–Markov position noise of this standard deviation and time constant.
    case noise(sigmaMeters: Double, timeConstantSeconds: Double)
    /// The receiver's clock off by this much (`FixFaultKind.weekRolloverNanoseconds` for the
    /// week-rollover bug).
    case clock(offsetNanoseconds: Int64)
    /// A cold start: no fix until the time to first fix, satellites acquired progressively.
    case coldStart(timeToFirstFixNanoseconds: Int64)
    /// No output.
    case silence
    /// Sentences corrupted at a rate (0...1 per sentence).
    case corrupt(rate: Double, style: WireFaultKind.SentenceCorruption)
  }
}
