import Geodesy

/// A vehicle driving an untimed route: it stays on the route's geodesic segments, starts and
/// ends at rest, cruises at the limits' speed, slows for turns and never accelerates, brakes
/// or turns faster than the limits allow.
///
/// Turns: see `TurnZones`. Speed: see `SpeedProfile`. Everything is worked out in `init`;
/// `state(at:)` is two binary searches and one direct geodesic, with no allocation.
///
/// Looping, the route is closed by a leg from its last point back to its first (none when they
/// are within 1 m: the last point is then replaced by the first), driven with the same limits;
/// the first lap starts at rest and every later lap passes the start at the same speed, so
/// time and position run on without a jump.
public struct RouteDriving: Motion {
  /// The most meters of each segment, either side of a vertex, over which a turn is spread.
  public static let turnZoneHalfLengthMeters = 10.0
  /// Points closer than this to the one before are dropped: a segment needs a direction.
  static let samePointMeters = 0.001
  /// A loop's last point closer than this to its first is taken to be the first.
  static let closedLoopMeters = 1.0

  /// One lap: its speed profile and its turns.
  struct Lap: Sendable {
    var zones: TurnZones
    var profile: SpeedProfile
  }

  let polyline: GeodesicPolyline
  let startTime: UTCInstant
  let firstLap: Lap
  /// The laps after the first when looping.
  let laterLaps: Lap?
  /// The course reported while a route of one point holds.
  let restingCourse: Double
  /// When a route driven once stops at its last point; nil when looping.
  public let endTime: UTCInstant?

  /// Drives `route` from `startTime`.
  ///
  /// - Returns: nil when the route has no point or the limits are not all above zero. A route of
  ///   one point (or of points all within 1 mm) holds there.
  public init?(route: Route, limits: DrivingLimits, startTime: UTCInstant, looping: Bool) {
    self.init(
      path: route.points.map(\.position), limits: limits, startTime: startTime,
      looping: looping, entry: nil)
  }

  /// Drives `path` from `startTime`, entering it in the state `entry` (its speed and course)
  /// when given, else from rest.
  ///
  /// The vehicle keeps the entry speed when the first turn zone and the path's length allow
  /// it; otherwise its speed drops at once to what they allow.
  init?(
    path: [GeodeticPosition], limits: DrivingLimits, startTime: UTCInstant, looping: Bool,
    entry: MotionState?
  ) {
    guard let first = path.first, limits.isDrivable else { return nil }
    var vertices = [first]
    for point in path.dropFirst()
    where Geodesic.wgs84.inverse(from: vertices[vertices.count - 1], to: point).distanceMeters
      >= Self.samePointMeters
    {
      vertices.append(point)
    }
    let closing = looping && vertices.count > 1
    if closing {
      let gap = Geodesic.wgs84.inverse(from: vertices[vertices.count - 1], to: first)
      if gap.distanceMeters < Self.closedLoopMeters { vertices.removeLast() }
      vertices.append(first)
      if vertices.count == 2 { vertices.removeLast() }
    }
    let polyline = GeodesicPolyline(vertices)
    let entryJoint = entry.flatMap { state in
      state.speedMetersPerSecond > 0
        ? TurnZones.Joint(courseDegrees: state.courseDegrees, outsideMeters: 0) : nil
    }
    let plan = LapPlanner(polyline: polyline, limits: limits)
    self.polyline = polyline
    self.startTime = startTime
    restingCourse = entry?.courseDegrees ?? 0
    if closing && polyline.segments.count > 1 {
      let segments = polyline.segments
      let halfLength = Self.turnZoneHalfLengthMeters
      let joinedFromEnd = TurnZones.Joint(
        courseDegrees: segments[segments.count - 1].finalAzimuthDegrees,
        outsideMeters: min(halfLength, segments[segments.count - 1].distanceMeters / 2))
      let joiningStart = TurnZones.Joint(
        courseDegrees: segments[0].initialAzimuthDegrees,
        outsideMeters: min(halfLength, segments[0].distanceMeters / 2))
      var later = plan.periodicLap(entry: joinedFromEnd, exit: joiningStart)
      let first = plan.lap(
        entry: nil, exit: joiningStart, startSpeed: 0, endSpeed: later.profile.startSpeed)
      if first.profile.endSpeed < later.profile.startSpeed {
        // A lap too short to reach the joint's speed from rest: every lap passes the joint at
        // the speed the first one reaches.
        later = plan.periodicLap(
          entry: joinedFromEnd, exit: joiningStart, highestJointSpeed: first.profile.endSpeed)
      }
      firstLap = first
      laterLaps = later
      endTime = nil
    } else {
      firstLap = plan.lap(
        entry: entryJoint, exit: nil, startSpeed: entry?.speedMetersPerSecond ?? 0, endSpeed: 0)
      laterLaps = nil
      endTime =
        looping
        ? nil
        : startTime.adding(
          nanoseconds: UTCInstant.clampedNanoseconds(
            firstLap.profile.duration * 1e9, rounding: .up))
    }
  }

  public func state(at time: UTCInstant) -> MotionState {
    var seconds = Double(time.nanoseconds(since: startTime)) / 1e9
    var lap = firstLap
    if let laterLaps, seconds >= firstLap.profile.duration, laterLaps.profile.duration > 0 {
      lap = laterLaps
      seconds = (seconds - firstLap.profile.duration)
        .truncatingRemainder(dividingBy: laterLaps.profile.duration)
    }
    guard !polyline.segments.isEmpty else {
      return MotionState(
        position: polyline.vertices[0], speedMetersPerSecond: 0, courseDegrees: restingCourse)
    }
    let (distance, speed) = lap.profile.sample(atSeconds: seconds)
    let index = polyline.segmentIndex(atDistance: distance)
    let length = polyline.segments[index].distanceMeters
    let offset = min(max(distance - polyline.vertexDistances[index], 0), length)
    let point = polyline.point(onSegment: index, offset: offset)
    let course = lap.zones.course(
      onSegment: index, offset: offset, length: length, azimuth: point.azimuthDegrees)
    return MotionState(
      position: point.position, speedMetersPerSecond: speed, courseDegrees: course,
      climbMetersPerSecond: speed * polyline.grade(ofSegment: index))
  }
}
