import Geodesy
import Simulation
import Testing

/// Found by the review of issue 7: times centuries apart, and where a scaled run starts. The
/// crashes they guard against run as exit tests, so that a trap fails the test, not the runner.
@Suite struct TimeExtremesTests {
  static let a = GeodeticPosition(known: 46, 14, altitudeMeters: 300)
  static let b = GeodeticPosition(known: 46.1, 14.1, altitudeMeters: 300)

  /// Times from 1678 to 2261 are accepted by every reader, but two of them can be more than
  /// Int64.max ns (292 years) apart: `TrackMotion.init` traps computing the duration
  /// (`mockgps run --route` on a CSV track from 1900 to 2200 dies with SIGILL; `check` passes).
  @Test func aTrackOverThreeCenturiesDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      let route = Route(points: [
        RoutePoint(
          position: TimeExtremesTests.a, time: UTCInstant(year: 1900, month: 1, day: 1)),
        RoutePoint(
          position: TimeExtremesTests.b, time: UTCInstant(year: 2200, month: 1, day: 1)),
      ])
      _ = TrackMotion(route: route, looping: false)
    }
  }

  /// `mockgps run --scenario s.json --time now` with a scenario starting in 1700: the shift by
  /// 326 years traps in `Scenario.shifted(toStartAt:)`.
  @Test func aScenarioFrom1700ShiftedToNowDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      let scenario = Scenario(
        startTime: UTCInstant(year: 1700, month: 1, day: 1),
        startPosition: TimeExtremesTests.a,
        timeline: [
          Scenario.Event(at: UTCInstant(year: 1700, month: 1, day: 1), .hold)
        ])
      _ = scenario.shifted(toStartAt: UTCInstant(year: 2026, month: 11, day: 30))
    }
  }

  /// A scenario `route` event playing a timed track recorded in 1700 from a scenario of 2024:
  /// the offset traps in `ScriptedMotion.play` when the scenario is compiled (at `run`; `check`
  /// passes).
  @Test func aScenarioPlayingAnOldTrackDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      let start = UTCInstant(year: 2024, month: 1, day: 1)
      let track = Route(points: [
        RoutePoint(
          position: TimeExtremesTests.a, time: UTCInstant(year: 1700, month: 1, day: 1)),
        RoutePoint(
          position: TimeExtremesTests.b,
          time: UTCInstant(year: 1700, month: 1, day: 1, minute: 1)),
      ])
      let scenario = Scenario(
        startTime: start, startPosition: TimeExtremesTests.a,
        timeline: [Scenario.Event(at: start, .route(track, speedMetersPerSecond: nil))])
      _ = scenario.compiled()
    }
  }

  /// Under `--time-scale X` the wire origin is the whole wire second before the start, and the
  /// simulated origin is mapped to it: at the moment the emulator starts, simulated time is
  /// already up to X seconds past `--start-time` (or the route's or scenario's start). At 1000,
  /// a 480 s route with `--once` often ends before its first epoch ("sent 0 epochs").
  @Test func aScaledRunStartsAtItsStartTime() {
    let start = UTCInstant(year: 2024, month: 1, day: 1)
    let wireNow = UTCInstant(year: 2026, month: 11, day: 30, hour: 12, nanosecond: 900_000_000)
    let time = SimulatedTime(start: start, scale: 1000, wireNow: wireNow)
    let skipped = time.simulated(atWire: wireNow).nanoseconds - start.nanoseconds
    #expect(skipped <= 1_000_000_000, "simulated time starts \(skipped / 1_000_000_000) s late")
  }

  /// `mockgps run --route t.csv --loop` with any timed track ending before 1970 and not closed
  /// dies with SIGILL: `Int64.max - times.last` in `TrackMotion.init` overflows for a negative
  /// time (the "room" check added by f018a1c).
  @Test func aLoopingTrackFrom1969DoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      let route = Route(points: [
        RoutePoint(
          position: TimeExtremesTests.a,
          time: UTCInstant(year: 1969, month: 7, day: 20, hour: 20)),
        RoutePoint(
          position: TimeExtremesTests.b,
          time: UTCInstant(year: 1969, month: 7, day: 20, hour: 20, minute: 30)),
      ])
      _ = TrackMotion(route: route, looping: true)
    }
  }
}
