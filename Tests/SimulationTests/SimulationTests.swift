import Geodesy
import Simulation
import TestFixtures
import Testing

@Suite struct UTCInstantTests {
  @Test(arguments: [
    (1970, 1, 1, 0), (2000, 2, 29, 951_782_400), (2026, 11, 29, 1_795_910_400),
    (1969, 12, 31, -86_400),
  ])
  func civilDatesRoundTrip(year: Int, month: Int, day: Int, seconds: Int64) {
    let instant = UTCInstant(year: year, month: month, day: day)
    #expect(instant.nanoseconds == seconds * 1_000_000_000)
    let civil = instant.civil
    #expect([civil.year, civil.month, civil.day] == [year, month, day])
  }

  @Test func roundsToTensOfMillisecondsAcrossMidnight() {
    let late = UTCInstant(
      year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59,
      nanosecond: 996_000_000)
    #expect(late.rounded(toMultipleOf: 10_000_000).description == "2027-01-01T00:00:00Z")
  }
}

@Suite struct SceneTests {
  @Test func aFixedPositionWithTheTypicalSkyIsA3DFixWithConsistentDOPs() throws {
    let position = try GeodeticPosition(
      latitude: 51.477928, longitude: -0.001545, altitudeMeters: 46)
    let scene = Scene(motion: FixedPosition(position))
    let time = UTCInstant(year: 2026, month: 11, day: 29, hour: 12)
    let fix = scene.fix(at: time)
    #expect(fix.time == time)
    #expect(fix.mode == .threeDimensional)
    #expect(fix.position == position)
    #expect(fix.speedMetersPerSecond == 0)
    #expect(fix.satellitesUsed.count == 8)
    #expect(fix.satellites.count == 10)
    let dop = try #require(fix.dop)
    #expect(dop.horizontal > 0.5 && dop.horizontal < 2)
    #expect(dop.position >= dop.horizontal)
  }

  @Test func tooFewSatellitesUsedMeansNoFix() throws {
    let sky = StaticSky(satellites: Array(StaticSky.typicalGPS.satellites.prefix(2)))
    let scene = Scene(
      motion: FixedPosition(try GeodeticPosition(latitude: 1, longitude: 2)), sky: sky)
    #expect(scene.fix(at: UTCInstant(nanosecondsSinceEpoch: 0)).mode == .noFix)
  }

  @Test func manualClockMovesOnlyWhenTold() {
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 5))
    #expect(clock.now().nanoseconds == 5)
    clock.advance(nanoseconds: 10)
    #expect(clock.now().nanoseconds == 15)
  }
}
