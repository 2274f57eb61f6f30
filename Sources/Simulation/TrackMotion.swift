import Geodesy

/// A recorded track played on its own timeline.
///
/// Between two points the position moves along the geodesic in proportion to time, the altitude
/// linearly; the speed is the segment's length over its duration, the course the azimuth of
/// travel at the point, the climb the altitude change over the duration. Before the first time
/// the receiver waits at the first point, after the last it stays at the last, at speed 0.
///
/// Two points with the same time are a jump in the recording: the later point is taken to be
/// reached at that instant, so the position jumps there (at the speed of the segment after it),
/// since a zero-length interval has no speed of its own. A segment of no length is a stop: speed
/// 0, course held from the last segment that moved.
///
/// Looping, a closing leg from the last point back to the first is played at the track's mean
/// speed (in no time when they are within 1 m), then the next lap; a track of no duration does
/// not loop. `init` works everything out; `state(at:)` is one binary search and at most one
/// direct geodesic, with no allocation.
public struct TrackMotion: Motion {
  let polyline: GeodesicPolyline
  /// Each vertex's time, nanoseconds since 1970, rebased by the offset; never decreasing.
  let times: [Int64]
  /// The course to report on each segment when not moving along it.
  let stillCourses: [Double]
  /// The course on arriving at the end: that of the last segment that moved.
  let arrivalCourse: Double
  /// The length of a lap when looping, nanoseconds; nil when played once.
  let lapNanoseconds: Int64?
  /// When the track played once ends; nil when looping.
  public let endTime: UTCInstant?

  /// Plays `route`, shifted `timeOffsetNanoseconds` later (for instance to start now).
  ///
  /// - Returns: nil when the route is not timed (no point, or a point without a time), its
  ///   times go backwards or it lasts longer than 292 years. An offset that would move a time
  ///   beyond the years 1677–2262 holds it there.
  public init?(route: Route, timeOffsetNanoseconds: Int64 = 0, looping: Bool) {
    guard route.isTimed else { return nil }
    var vertices = route.points.map(\.position)
    var times = route.points.map {
      ($0.time ?? UTCInstant(nanosecondsSinceEpoch: 0)).adding(nanoseconds: timeOffsetNanoseconds)
        .nanoseconds
    }
    guard zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
    var lapNanoseconds: Int64?
    // A track longer than an Int64 of nanoseconds (292 years) cannot be played.
    let (duration, tooLong) = times[times.count - 1].subtractingReportingOverflow(times[0])
    guard !tooLong else { return nil }
    if looping, duration > 0 {
      let track = GeodesicPolyline(vertices)
      let gap = Geodesic.wgs84.inverse(from: vertices[vertices.count - 1], to: vertices[0])
      var closing: Int64 = 0
      if gap.distanceMeters >= RouteDriving.closedLoopMeters {
        let meanSpeed = track.length / (Double(duration) / 1e9)
        let nanoseconds = meanSpeed > 0 ? (gap.distanceMeters / meanSpeed * 1e9).rounded() : 0
        // A lap must end within the years an instant holds.
        let room = Double(Int64.max) - Double(times[times.count - 1])
        guard nanoseconds.isFinite, nanoseconds < room else { return nil }
        closing = Int64(nanoseconds)
      }
      guard !duration.addingReportingOverflow(closing).overflow else { return nil }
      vertices.append(vertices[0])
      times.append(times[times.count - 1] + closing)
      lapNanoseconds = duration + closing
    }
    polyline = GeodesicPolyline(vertices)
    self.times = times
    self.lapNanoseconds = lapNanoseconds
    stillCourses = Self.heldCourses(polyline.segments)
    arrivalCourse =
      polyline.segments.last { $0.distanceMeters > 0 }?.finalAzimuthDegrees ?? 0
    endTime =
      lapNanoseconds == nil ? UTCInstant(nanosecondsSinceEpoch: times[times.count - 1]) : nil
  }

  /// For each segment, the course of the last segment before it that has a length (of the first
  /// that has one, for those before it; 0 when none has).
  private static func heldCourses(_ segments: [GeodesicInverse]) -> [Double] {
    var course =
      segments.first { $0.distanceMeters > 0 }?.initialAzimuthDegrees ?? 0
    return segments.map { segment in
      if segment.distanceMeters > 0 { course = segment.finalAzimuthDegrees }
      return segment.distanceMeters > 0 ? segment.initialAzimuthDegrees : course
    }
  }

  public func state(at time: UTCInstant) -> MotionState {
    let first = times[0]
    var now = time.nanoseconds
    if let lapNanoseconds, now >= first {
      // Both are instants and `now` is the later: the difference fits unless `first` is
      // before 1970 and `now` far after; then any lap count is as good as another.
      let (elapsed, overflow) = now.subtractingReportingOverflow(first)
      now = first + (overflow ? 0 : elapsed % lapNanoseconds)
    }
    let index = times.lastIndex(notAfter: now)
    if index < 0 { return still(atVertex: 0, course: stillCourses.first ?? 0) }
    if index >= polyline.segments.count {
      return still(atVertex: index, course: arrivalCourse)
    }
    let duration = Double(times[index + 1] - times[index]) / 1e9
    let segment = polyline.segments[index]
    let fraction = Double(now - times[index]) / 1e9 / duration
    let climb =
      (polyline.vertices[index + 1].altitudeMeters - polyline.vertices[index].altitudeMeters)
      / duration
    guard segment.distanceMeters > 0 else {
      var state = still(atVertex: index, course: stillCourses[index])
      state.position.altitudeMeters += climb * fraction * duration
      state.climbMetersPerSecond = climb
      return state
    }
    let point = polyline.point(onSegment: index, offset: fraction * segment.distanceMeters)
    return MotionState(
      position: point.position, speedMetersPerSecond: segment.distanceMeters / duration,
      courseDegrees: point.azimuthDegrees, climbMetersPerSecond: climb)
  }

  private func still(atVertex index: Int, course: Double) -> MotionState {
    MotionState(
      position: polyline.vertices[index], speedMetersPerSecond: 0, courseDegrees: course)
  }
}
