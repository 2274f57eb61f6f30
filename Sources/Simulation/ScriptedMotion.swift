import Geodesy

/// The motion of a scenario: a start, then legs that each begin at a time.
///
/// Each leg starts from the state the one before it has reached at that instant (a later step
/// interrupts the leg before it). A moving vehicle keeps its speed into the next leg when the
/// new path's first turn and length allow it (see `RouteDriving`). The motion never ends by
/// itself: `endTime` is nil, a scenario ends by its own timeline.
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

  /// A leg worked out from the state it starts in.
  enum PlannedLeg: Sendable {
    /// Standing still in this state.
    case hold(MotionState)
    /// Driving a path.
    case drive(RouteDriving)
    /// Playing a timed track after driving to its first point.
    case track(approach: RouteDriving?, track: TrackMotion, trackStart: UTCInstant)

    func state(at time: UTCInstant) -> MotionState {
      switch self {
      case .hold(let state): return state
      case .drive(let driving): return driving.state(at: time)
      case .track(let approach, let track, let trackStart):
        if let approach, time < trackStart { return approach.state(at: time) }
        return track.state(at: time)
      }
    }
  }

  /// When each planned leg starts, in order; the first is the start time.
  let legStarts: [Int64]
  let legs: [PlannedLeg]

  /// Creates the motion from a start and steps in time order (steps out of order are sorted,
  /// keeping the order of steps at the same time: the last of them wins; steps before
  /// `startTime` start at `startTime`).
  ///
  /// A hold stops at once. A goto or route leg with a speed that is not above zero holds, as
  /// does a route with no point. A route's approach ends at rest at its first point; a timed
  /// route played at its own pace then starts at its recorded speed.
  public init(
    start: GeodeticPosition, startTime: UTCInstant, steps: [Step], limits: DrivingLimits
  ) {
    var legStarts = [startTime.nanoseconds]
    var legs = [
      PlannedLeg.hold(MotionState(position: start, speedMetersPerSecond: 0, courseDegrees: 0))
    ]
    let ordered = steps.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }
    for step in ordered.map(\.element) {
      let begin = max(step.at, startTime)
      let entry = legs[legs.count - 1].state(at: begin)
      legStarts.append(begin.nanoseconds)
      legs.append(Self.plan(step.leg, from: entry, at: begin, limits: limits))
    }
    self.legStarts = legStarts
    self.legs = legs
  }

  /// Works out `leg` started at `time` in state `entry`.
  static func plan(
    _ leg: Leg, from entry: MotionState, at time: UTCInstant, limits: DrivingLimits
  ) -> PlannedLeg {
    let hold = PlannedLeg.hold(
      MotionState(
        position: entry.position, speedMetersPerSecond: 0, courseDegrees: entry.courseDegrees))
    switch leg {
    case .hold:
      return hold
    case .goto(let target, let speed):
      return drive([entry.position, target], at: speed, from: entry, time: time, limits: limits)
        ?? hold
    case .route(let route, let speed):
      let approach = approachPath(to: route, from: entry)
      if speed == nil, route.isTimed {
        return play(route, after: approach, from: entry, time: time, limits: limits) ?? hold
      }
      return drive(
        approach + route.points.map(\.position), at: speed ?? limits.speedMetersPerSecond,
        from: entry, time: time, limits: limits) ?? hold
    }
  }

  /// Drives `approach` (if any), then plays the timed `route` at its recorded pace from the
  /// instant the approach ends (at rest; the track then starts at its own speed).
  private static func play(
    _ route: Route, after approach: [GeodeticPosition], from entry: MotionState,
    time: UTCInstant, limits: DrivingLimits
  ) -> PlannedLeg? {
    guard let first = route.points.first, let firstTime = first.time else { return nil }
    let driving =
      approach.isEmpty
      ? nil
      : RouteDriving(
        path: approach + [first.position], limits: limits, startTime: time, looping: false,
        entry: entry)
    let trackStart = driving?.endTime ?? time
    return TrackMotion(
      route: route, timeOffsetNanoseconds: trackStart.nanoseconds(since: firstTime),
      looping: false
    ).map { .track(approach: driving, track: $0, trackStart: trackStart) }
  }

  /// The current position when a route starts more than 1 m away from it, else nothing: the
  /// route then starts where the receiver is (a step of under 1 m).
  private static func approachPath(to route: Route, from entry: MotionState) -> [GeodeticPosition] {
    guard let first = route.points.first else { return [] }
    let gap = Geodesic.wgs84.inverse(from: entry.position, to: first.position).distanceMeters
    return gap > RouteDriving.closedLoopMeters ? [entry.position] : []
  }

  private static func drive(
    _ path: [GeodeticPosition], at speed: Double, from entry: MotionState, time: UTCInstant,
    limits: DrivingLimits
  ) -> PlannedLeg? {
    RouteDriving(
      path: path, limits: limits.cruising(at: speed), startTime: time, looping: false,
      entry: entry
    ).map(PlannedLeg.drive)
  }

  public func state(at time: UTCInstant) -> MotionState {
    legs[max(legStarts.lastIndex(notAfter: time.nanoseconds), 0)].state(at: time)
  }

  /// When the last leg stops moving: the end of its drive or track, the start of a final hold;
  /// nil when it never stops (a looping track).
  public var movementEndTime: UTCInstant? {
    guard let last = legs.last, let start = legStarts.last else { return nil }
    switch last {
    case .hold: return UTCInstant(nanosecondsSinceEpoch: start)
    case .drive(let driving): return driving.endTime
    case .track(_, let track, _): return track.endTime
    }
  }
}
