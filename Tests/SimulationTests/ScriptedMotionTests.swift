import Geodesy
import Simulation
import Testing

@Suite struct ScriptedMotionTests {
  static let start = UTCInstant(year: 2026, month: 11, day: 30, hour: 9)
  static let home = Shapes.square[0]
  static let north = Shapes.square[1]
  static let northEast = Shapes.square[2]

  static func at(_ seconds: Int64) -> UTCInstant {
    start.adding(nanoseconds: seconds * 1_000_000_000)
  }

  @Test func itHoldsAtTheStartThenGoesToATargetAndStaysThere() throws {
    let motion = ScriptedMotion(
      start: Self.home, startTime: Self.start,
      steps: [.init(at: Self.at(10), leg: .goto(Self.north, speedMetersPerSecond: 5))],
      limits: .car)
    #expect(motion.endTime == nil)
    #expect(motion.state(at: Self.at(5)).position == Self.home)
    #expect(motion.state(at: Self.at(10)).position == Self.home)
    let arrived = motion.state(at: Self.at(100))
    #expect(arrived.position == Self.north)
    #expect(arrived.speedMetersPerSecond == 0)
    let run = samples(of: motion, from: Self.at(10), seconds: 60, rate: 10)
    var check = DrivingCheck(limits: DrivingLimits.car.cruising(at: 5))
    check.check(run, along: [Self.home, Self.north], closed: false)
    #expect(run.map(\.state.speedMetersPerSecond).max() == 5)
  }

  @Test func aLaterStepInterruptsALegWhereItHasGot() throws {
    let motion = ScriptedMotion(
      start: Self.home, startTime: Self.start,
      steps: [
        .init(at: Self.at(0), leg: .goto(Self.north, speedMetersPerSecond: 10)),
        .init(at: Self.at(8), leg: .hold),
      ],
      limits: .car)
    let driving = try #require(
      RouteDriving(
        route: Shapes.route([Self.home, Self.north]), limits: DrivingLimits.car.cruising(at: 10),
        startTime: Self.start, looping: false))
    let interrupted = driving.state(at: Self.at(8)).position
    let held = motion.state(at: Self.at(60))
    #expect(held.position == interrupted)
    #expect(held.speedMetersPerSecond == 0)
    #expect(geodesic(Self.home, interrupted).distanceMeters > 40)
  }

  @Test func aNewLegStartsAtTheSpeedItIsGoingAndTurnsNoFasterThanTheLimit() throws {
    let limits = DrivingLimits.car
    let motion = ScriptedMotion(
      start: Self.home, startTime: Self.start,
      steps: [
        .init(at: Self.at(0), leg: .goto(Self.north, speedMetersPerSecond: 10)),
        .init(at: Self.at(12), leg: .goto(Self.northEast, speedMetersPerSecond: 10)),
      ],
      limits: limits)
    let before = motion.state(at: Self.at(12).adding(nanoseconds: -1))
    let after = motion.state(at: Self.at(12))
    #expect(before.speedMetersPerSecond > 5)
    #expect(geodesic(before.position, after.position).distanceMeters < 0.001)
    let run = samples(of: motion, from: Self.at(12), seconds: 60, rate: 10)
    var check = DrivingCheck(limits: limits)
    check.check(run, along: [after.position, Self.northEast], closed: false)
    #expect(check.worstTurnRate <= limits.turnRateDegreesPerSecond + 0.5)
  }

  @Test func aRouteLegDrivesThereFirstThenFollowsTheRoute() throws {
    let route = Shapes.route(Array(Shapes.square.dropFirst()))
    let motion = ScriptedMotion(
      start: Self.home, startTime: Self.start,
      steps: [.init(at: Self.at(0), leg: .route(route, speedMetersPerSecond: 8))], limits: .car)
    let run = samples(of: motion, from: Self.start, seconds: 200, rate: 1)
    var check = DrivingCheck(limits: DrivingLimits.car.cruising(at: 8))
    check.check(run, along: Shapes.square, closed: false)
    #expect(motion.state(at: Self.at(1000)).position == Shapes.square[Shapes.square.count - 1])
  }

  @Test func aTimedRouteWithoutASpeedPlaysAtItsOwnPaceAfterTheApproach() throws {
    let route = Route(points: Shapes.garminRun)
    let recorded = try #require(Shapes.garminRun[0].time)
    let nearby = GeodeticPosition(known: 37.244, -121.9723)
    let motion = ScriptedMotion(
      start: nearby, startTime: Self.start,
      steps: [.init(at: Self.at(0), leg: .route(route, speedMetersPerSecond: nil))], limits: .car)
    let approach = try #require(
      RouteDriving(
        route: Shapes.route([nearby, Shapes.garminRun[0].position]), limits: .car,
        startTime: Self.start, looping: false))
    let trackStart = try #require(approach.endTime)
    for point in Shapes.garminRun.prefix(50) {
      let time = try #require(point.time)
      let replayed = trackStart.adding(nanoseconds: time.nanoseconds - recorded.nanoseconds)
      #expect(motion.state(at: replayed).position == point.position)
    }
    #expect(motion.state(at: Self.at(20)) == approach.state(at: Self.at(20)))
    #expect(trackStart > Self.at(20))
  }

  @Test func aRouteUnderOneMeterAwayStartsWhereTheReceiverIs() throws {
    let route = Shapes.route(Array(Shapes.square.dropFirst()))
    let nearby = Geodesic.wgs84.direct(
      from: Self.north, azimuthDegrees: 90, distanceMeters: 0.5
    ).position
    let motion = ScriptedMotion(
      start: nearby, startTime: Self.start,
      steps: [.init(at: Self.at(0), leg: .route(route, speedMetersPerSecond: 8))], limits: .car)
    let driving = try #require(
      RouteDriving(
        route: route, limits: DrivingLimits.car.cruising(at: 8), startTime: Self.start,
        looping: false))
    for second in stride(from: Int64(1), to: 120, by: 11) {
      #expect(motion.state(at: Self.at(second)) == driving.state(at: Self.at(second)))
    }
  }
}
