import Geodesy
import Simulation
import Testing

/// Checks every pair of successive samples of a driven route against the properties the issue
/// asks for, and records the worst figures seen.
struct DrivingCheck {
  let limits: DrivingLimits
  var worstSpeedError = 0.0
  var worstCrossTrack = 0.0
  var worstStraightCourseError = 0.0
  var worstAcceleration = 0.0
  var worstTurnRate = 0.0

  /// Runs the checks over `samples` of a motion that drives `path` (closed: a loop).
  ///
  /// - Speed: the receiver stays on the polyline, so the distance it covers between samples is
  ///   the distance along the polyline (the chord is shorter across a vertex). Under constant
  ///   acceleration the mean of the two speeds is exactly that distance over the step; where the
  ///   acceleration changes inside the step (by at most 2a, cruise to braking) the trapezoid
  ///   rule is off by at most 2a·dt/8, hence the tolerance a·dt/4 + 1 mm/s.
  /// - Course: on a straight stretch (both samples on one segment, outside its 10 m turn zones)
  ///   it is the azimuth from one position to the next within 0.1°.
  /// - Acceleration and turn rate: within the limits, plus 1e-6 m/s² and 0.5°/s for the
  ///   geodesic's own change of azimuth (nil away from the poles).
  mutating func check(_ samples: [MotionSample], along path: [GeodeticPosition], closed: Bool) {
    var walker = PolylineWalker(path, closed: closed)
    let halfZone = RouteDriving.turnZoneHalfLengthMeters
    for (previous, next) in zip(samples, samples.dropFirst()) {
      let step = Double(next.time.nanoseconds - previous.time.nanoseconds) / 1e9
      let (a, b) = (previous.state, next.state)
      let from = walker.place
      let reach = limits.speedMetersPerSecond * step + 1
      let meanSpeed = (a.speedMetersPerSecond + b.speedMetersPerSecond) / 2
      guard let travelled = walker.advance(to: b.position, reach: reach, expected: meanSpeed * step)
      else {
        Issue.record("\(b.position) at \(next.time) is off the polyline or too far on")
        return
      }
      let to = walker.place
      worstCrossTrack = max(worstCrossTrack, abs(to.crossTrack))
      let speedError = abs(travelled / step - meanSpeed)
      worstSpeedError = max(worstSpeedError, speedError)
      #expect(
        speedError <= limits.accelerationMetersPerSecondSquared * step / 4 + 0.001,
        "speed \(meanSpeed) vs \(travelled / step) m/s at \(next.time)")
      let chord = geodesic(a.position, b.position)
      #expect(chord.distanceMeters <= travelled + 0.001)
      let segmentLength = walker.segments[to.segment].distanceMeters
      let zone = min(halfZone, segmentLength / 2)
      if from.segment == to.segment, min(from.along, to.along) >= zone,
        max(from.along, to.along) <= segmentLength - zone, a.speedMetersPerSecond > 1
      {
        let error = abs(turn(from: a.courseDegrees, to: chord.initialAzimuthDegrees))
        worstStraightCourseError = max(worstStraightCourseError, error)
        #expect(error < 0.1, "course \(a.courseDegrees) vs \(chord.initialAzimuthDegrees)")
      }
      let acceleration = abs(b.speedMetersPerSecond - a.speedMetersPerSecond) / step
      worstAcceleration = max(worstAcceleration, acceleration)
      #expect(acceleration <= limits.accelerationMetersPerSecondSquared + 1e-6)
      let turnRate = abs(turn(from: a.courseDegrees, to: b.courseDegrees)) / step
      worstTurnRate = max(worstTurnRate, turnRate)
      #expect(
        turnRate <= limits.turnRateDegreesPerSecond + 0.5,
        "turned \(turnRate)°/s at \(next.time)")
    }
  }
}

@Suite struct RouteDrivingTests {
  static let start = UTCInstant(year: 2026, month: 11, day: 30, hour: 9)

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var path: [GeodeticPosition]
    var testDescription: String { name }
  }

  static let shapes = [
    Case(name: "square", path: Shapes.square), Case(name: "hairpin", path: Shapes.hairpin),
    Case(name: "antimeridian", path: Shapes.antimeridian),
    Case(name: "near the pole", path: Shapes.nearPole),
    Case(name: "ecology trail", path: Shapes.ecologyTrail),
  ]

  @Test(arguments: shapes, [1, 10])
  func drivingOnceStaysOnTheRouteWithinTheLimits(shape: Case, rate: Int) throws {
    let limits = DrivingLimits.car
    let driving = try #require(
      RouteDriving(
        route: Shapes.route(shape.path), limits: limits, startTime: Self.start, looping: false))
    let end = try #require(driving.endTime)
    let seconds = Int((end.nanoseconds - Self.start.nanoseconds) / 1_000_000_000) + 2
    let run = samples(of: driving, from: Self.start, seconds: seconds, rate: rate)
    var check = DrivingCheck(limits: limits)
    check.check(run, along: shape.path, closed: false)
    #expect(check.worstCrossTrack < 0.01)

    let first = driving.state(at: Self.start)
    #expect(first.position == shape.path[0])
    #expect(first.speedMetersPerSecond == 0)
    let last = driving.state(at: end)
    #expect(last.position == shape.path[shape.path.count - 1])
    #expect(last.speedMetersPerSecond == 0)
    #expect(driving.state(at: end.adding(nanoseconds: -500_000_000)).speedMetersPerSecond > 0)
    #expect(run.map(\.state.speedMetersPerSecond).max() ?? 0 <= limits.speedMetersPerSecond)
  }

  @Test func aSquareIsDrivenAtCruiseOnItsSidesAndSlowedAtItsCorners() throws {
    let limits = DrivingLimits.car
    let driving = try #require(
      RouteDriving(
        route: Shapes.route(Shapes.square), limits: limits, startTime: Self.start,
        looping: false))
    let run = samples(of: driving, from: Self.start, seconds: 80, rate: 10)
    var walker = PolylineWalker(Shapes.square)
    var cornerSpeeds: [Double] = []
    var sideSpeeds: [Double] = []
    for sample in run.dropFirst() {
      _ = walker.advance(to: sample.state.position, reach: 20)
      let along = walker.place.along
      let length = walker.segments[walker.place.segment].distanceMeters
      if walker.place.segment > 0, along < 10 {
        cornerSpeeds.append(sample.state.speedMetersPerSecond)
      }
      if along > 80, along < length - 80 { sideSpeeds.append(sample.state.speedMetersPerSecond) }
    }
    // A corner of about 90° spread over 20 m at 30°/s: 20 · 30 / 90 = 6.67 m/s at most.
    let turns = zip(walker.segments, walker.segments.dropFirst()).map { arriving, leaving in
      abs(turn(from: arriving.finalAzimuthDegrees, to: leaving.initialAzimuthDegrees))
    }
    let highestLimit = 20 * 30 / (try #require(turns.min()))
    let lowestLimit = 20 * 30 / (try #require(turns.max()))
    #expect(abs(highestLimit - 6.67) < 0.01 && abs(lowestLimit - 6.67) < 0.01)
    #expect(try #require(cornerSpeeds.max()) <= highestLimit + 1e-9)
    #expect(try #require(cornerSpeeds.min()) >= lowestLimit - 0.01)
    #expect(sideSpeeds.contains { abs($0 - limits.speedMetersPerSecond) < 1e-9 })
  }

  /// A small triangle (sides of about 10 m) driven with a slow acceleration: the first lap
  /// cannot reach the speed its corners allow.
  static let smallTriangle = [
    Shapes.point(45, 7), Shapes.point(45.00009, 7), Shapes.point(45.000045, 7.000064),
  ]

  @Test(arguments: [
    (Case(name: "square", path: Shapes.square), DrivingLimits.car),
    (Case(name: "ecology trail", path: Shapes.ecologyTrail), .car),
    (Case(name: "open triangle", path: Array(Shapes.square.prefix(3))), .car),
    (
      Case(name: "small triangle", path: smallTriangle),
      DrivingLimits(
        speedMetersPerSecond: 13.9, accelerationMetersPerSecondSquared: 0.05,
        turnRateDegreesPerSecond: 30)
    ),
  ])
  func loopingGoesRoundWithoutAJumpOrAStop(shape: Case, limits: DrivingLimits) throws {
    let driving = try #require(
      RouteDriving(
        route: Shapes.route(shape.path), limits: limits, startTime: Self.start, looping: true))
    #expect(driving.endTime == nil)
    var loop = shape.path
    if geodesic(loop[loop.count - 1], loop[0]).distanceMeters < 1 { loop.removeLast() }
    loop.append(loop[0])
    let lapLength = PolylineWalker(loop).length
    let seconds = max(Int(lapLength / 4), 120)  // over two laps at the speeds allowed
    let run = samples(of: driving, from: Self.start, seconds: seconds, rate: 10)
    var check = DrivingCheck(limits: limits)
    check.check(run, along: loop, closed: true)
    let moving = run.dropFirst(100).filter { $0.state.speedMetersPerSecond == 0 }
    #expect(moving.isEmpty, "stopped at \(moving.first?.time.description ?? "")")
  }

  @Test func aRouteOfOnePointHoldsAndAnEmptyRouteOrStillLimitsAreRefused() throws {
    let one = Shapes.route([Shapes.square[0]])
    let driving = try #require(
      RouteDriving(route: one, limits: .car, startTime: Self.start, looping: false))
    #expect(driving.endTime == Self.start)
    let state = driving.state(at: Self.start.adding(nanoseconds: 5_000_000_000))
    #expect(state.position == Shapes.square[0])
    #expect(state.speedMetersPerSecond == 0)
    #expect(
      RouteDriving(route: Route(points: []), limits: .car, startTime: Self.start, looping: false)
        == nil)
    let parked = DrivingLimits.car.cruising(at: 0)
    #expect(
      RouteDriving(
        route: Shapes.route(Shapes.square), limits: parked, startTime: Self.start, looping: false)
        == nil)
  }

  @Test func repeatedPointsAreDrivenThroughWithoutStopping() throws {
    var path = Shapes.square
    path.insert(path[1], at: 1)
    let driving = try #require(
      RouteDriving(route: Shapes.route(path), limits: .car, startTime: Self.start, looping: false))
    let plain = try #require(
      RouteDriving(
        route: Shapes.route(Shapes.square), limits: .car, startTime: Self.start, looping: false))
    #expect(driving.endTime == plain.endTime)
  }
}
