import Geodesy
import Simulation
import Testing

@Suite struct TrackMotionTests {
  static let run = Route(points: Shapes.garminRun)
  static var firstTime: UTCInstant {
    Shapes.garminRun[0].time ?? UTCInstant(nanosecondsSinceEpoch: 0)
  }
  static var lastTime: UTCInstant {
    Shapes.garminRun[Shapes.garminRun.count - 1].time ?? UTCInstant(nanosecondsSinceEpoch: 0)
  }

  @Test func theRecordedPointsAreReproducedAtTheirOwnTimes() throws {
    let track = try #require(TrackMotion(route: Self.run, looping: false))
    for point in Shapes.garminRun {
      let time = try #require(point.time)
      #expect(track.state(at: time).position == point.position)
    }
  }

  /// Between successive samples the receiver covers, along the track, the time-weighted mean of
  /// the speeds of the segments it crossed. The run's points are at least 1 s apart, so a step
  /// of at most 1 s crosses at most two segments, whose speeds the two samples report: the
  /// distance over the step lies between them (1 mm/s for rounding).
  @Test(arguments: [1, 10], [0, 500_000_000])
  func speedAndCourseAgreeWithTheDistanceBetweenEpochs(rate: Int, phase: Int64) throws {
    let track = try #require(TrackMotion(route: Self.run, looping: false))
    let seconds = Int((Self.lastTime.nanoseconds - Self.firstTime.nanoseconds) / 1_000_000_000)
    let run = samples(
      of: track, from: Self.firstTime.adding(nanoseconds: phase), seconds: seconds - 1, rate: rate)
    var walker = PolylineWalker(Shapes.garminRun.map(\.position))
    _ = walker.advance(to: run[0].state.position, reach: 100)
    var worstCourseError = 0.0
    for (previous, next) in zip(run, run.dropFirst()) {
      let step = 1 / Double(rate)
      let from = walker.place
      let advanced = walker.advance(to: next.state.position, reach: 100)
      let travelled = try #require(advanced)
      let speeds = [previous.state.speedMetersPerSecond, next.state.speedMetersPerSecond]
      let (slowest, fastest) = (speeds.min() ?? 0, speeds.max() ?? 0)
      #expect(travelled / step >= slowest - 0.001 && travelled / step <= fastest + 0.001)
      let chord = geodesic(previous.state.position, next.state.position)
      if from.segment == walker.place.segment, previous.state.speedMetersPerSecond > 1 {
        let error = abs(turn(from: previous.state.courseDegrees, to: chord.initialAzimuthDegrees))
        worstCourseError = max(worstCourseError, error)
      }
    }
    #expect(worstCourseError < 0.01)
  }

  @Test func itWaitsAtTheFirstPointAndStaysAtTheLast() throws {
    let track = try #require(TrackMotion(route: Self.run, looping: false))
    #expect(track.endTime == Self.lastTime)
    let before = track.state(at: Self.firstTime.adding(nanoseconds: -60_000_000_000))
    #expect(before.position == Shapes.garminRun[0].position)
    #expect(before.speedMetersPerSecond == 0)
    let after = track.state(at: Self.lastTime.adding(nanoseconds: 60_000_000_000))
    #expect(after.position == Shapes.garminRun[Shapes.garminRun.count - 1].position)
    #expect(after.speedMetersPerSecond == 0)
  }

  @Test func anOffsetRebasesTheTimeline() throws {
    let hour: Int64 = 3_600_000_000_000
    let track = try #require(TrackMotion(route: Self.run, looping: false))
    let later = try #require(
      TrackMotion(route: Self.run, timeOffsetNanoseconds: hour, looping: false))
    #expect(later.endTime == Self.lastTime.adding(nanoseconds: hour))
    for second in stride(from: Int64(0), to: 600, by: 7) {
      let time = Self.firstTime.adding(nanoseconds: second * 1_000_000_000 + 300_000_000)
      #expect(later.state(at: time.adding(nanoseconds: hour)) == track.state(at: time))
    }
  }

  @Test func loopingClosesAtTheMeanSpeedWithoutAJump() throws {
    let track = try #require(TrackMotion(route: Self.run, looping: true))
    #expect(track.endTime == nil)
    let duration = Int((Self.lastTime.nanoseconds - Self.firstTime.nanoseconds) / 1_000_000_000)
    let run = samples(of: track, from: Self.firstTime, seconds: duration * 3, rate: 1)
    for (previous, next) in zip(run, run.dropFirst()) {
      let jump = geodesic(previous.state.position, next.state.position).distanceMeters
      let fastest = max(previous.state.speedMetersPerSecond, next.state.speedMetersPerSecond)
      #expect(jump <= fastest * 1 + 0.001, "jumped \(jump) m at \(next.time)")
    }
    let gap = geodesic(
      Shapes.garminRun[Shapes.garminRun.count - 1].position, Shapes.garminRun[0].position)
    let length = PolylineWalker(Shapes.garminRun.map(\.position)).length
    let meanSpeed = length / Double(duration)
    let closingSeconds = gap.distanceMeters / meanSpeed
    #expect(closingSeconds > 2)
    for sample in run.dropFirst(duration + 1).prefix(Int(closingSeconds)) {
      #expect(abs(sample.state.speedMetersPerSecond - meanSpeed) < 1e-6)
    }
    let lap = Int64((Double(duration) + closingSeconds) * 1e9)
    for lapCount in Int64(1)...3 {
      let time = Self.firstTime.adding(nanoseconds: lap * lapCount + 1)
      let lapStart = track.state(at: time).position
      #expect(geodesic(lapStart, Shapes.garminRun[0].position).distanceMeters < 0.01)
    }
  }

  static func point(_ north: Double, at second: Int64, altitude: Double = 0) -> RoutePoint {
    RoutePoint(
      position: GeodeticPosition(known: 46 + north / 111_000, 14, altitudeMeters: altitude),
      time: UTCInstant(nanosecondsSinceEpoch: second * 1_000_000_000))
  }

  @Test func aStopReportsSpeedZeroAndHoldsTheCourse() throws {
    let route = Route(points: [
      Self.point(0, at: 0), Self.point(100, at: 10), Self.point(100, at: 20, altitude: 5),
      Self.point(200, at: 30),
    ])
    let track = try #require(TrackMotion(route: route, looping: false))
    let stopped = track.state(at: UTCInstant(nanosecondsSinceEpoch: 15_000_000_000))
    #expect(stopped.speedMetersPerSecond == 0)
    #expect(abs(turn(from: stopped.courseDegrees, to: 0)) < 0.01)
    #expect(stopped.position.altitudeMeters == 2.5)
    #expect(stopped.climbMetersPerSecond == 0.5)
    let moving = track.state(at: UTCInstant(nanosecondsSinceEpoch: 5_000_000_000))
    #expect(abs(moving.speedMetersPerSecond - 10) < 0.05)
  }

  @Test func twoPointsAtTheSameTimeAreAJumpAtThatInstant() throws {
    let route = Route(points: [
      Self.point(0, at: 0), Self.point(100, at: 10), Self.point(300, at: 10),
      Self.point(400, at: 20),
    ])
    let track = try #require(TrackMotion(route: route, looping: false))
    let justBefore = track.state(at: UTCInstant(nanosecondsSinceEpoch: 9_999_999_999))
    #expect(geodesic(justBefore.position, route.points[1].position).distanceMeters < 0.01)
    let at = track.state(at: UTCInstant(nanosecondsSinceEpoch: 10_000_000_000))
    #expect(at.position == route.points[2].position)
    #expect(at.speedMetersPerSecond > 9)
  }

  @Test func untimedOrBackwardRoutesAreRefused() {
    #expect(TrackMotion(route: Shapes.route(Shapes.square), looping: false) == nil)
    #expect(TrackMotion(route: Route(points: []), looping: false) == nil)
    let backwards = Route(points: [Self.point(0, at: 10), Self.point(100, at: 0)])
    #expect(TrackMotion(route: backwards, looping: false) == nil)
  }

  @Test func aTrackOfOnePointHoldsThere() throws {
    let track = try #require(
      TrackMotion(route: Route(points: [Self.point(0, at: 5)]), looping: true))
    for second in [Int64(0), 5, 60] {
      let state = track.state(at: UTCInstant(nanosecondsSinceEpoch: second * 1_000_000_000))
      #expect(state.position == Self.point(0, at: 5).position)
      #expect(state.speedMetersPerSecond == 0)
    }
  }

  @Test func aClosedTrackLoopsWithoutAClosingLeg() throws {
    let route = Route(points: [
      Self.point(0, at: 0), Self.point(100, at: 10), Self.point(200, at: 20),
      Self.point(0.5, at: 40),
    ])
    let track = try #require(TrackMotion(route: route, looping: true))
    #expect(track.endTime == nil)
    let lap: Int64 = 40_000_000_000
    for laps in Int64(1)...3 {
      let wrapped = track.state(at: UTCInstant(nanosecondsSinceEpoch: laps * lap + 5_000_000_000))
      let first = track.state(at: UTCInstant(nanosecondsSinceEpoch: 5_000_000_000))
      #expect(wrapped == first)
    }
  }
}
