import Geodesy
import Simulation
import Testing

@testable import Simulation

/// A scene reports the sky of the UTC second its epoch is in: the sky of the epoch's own
/// instant on the whole second, the same through the second, a new one for a changed sky or
/// motion at once.
@Suite struct SkyOfTheSecondTests {
  static let london = GeodeticPosition(known: 51.5074, -0.1278, altitudeMeters: 20)
  static let second = UTCInstant(year: 2026, month: 3, day: 14, hour: 6, minute: 0, second: 0)
  static let sky = OrbitalSky.nominal(constellations: [.gps, .galileo], channelLimit: 20)

  static func at(milliseconds: Int64) -> UTCInstant {
    second.adding(nanoseconds: milliseconds * 1_000_000)
  }

  /// The satellites, DOPs and mode of an epoch are those of its second's start, from where the
  /// motion is then; on the whole second they are the sky's at that instant.
  @Test func anEpochReportsTheSkyAtTheStartOfItsSecond() throws {
    let scene = Scene(motion: FixedPosition(Self.london), sky: Self.sky)
    let exact = Self.sky.satellites(at: Self.second, from: Self.london)
    let used = exact.filter(\.isUsed).map { (azimuth: $0.azimuth, elevation: $0.elevation) }
    for milliseconds: Int64 in [0, 100, 500, 999] {
      let fix = scene.fix(at: Self.at(milliseconds: milliseconds))
      #expect(fix.time == Self.at(milliseconds: milliseconds))
      #expect(fix.satellites == exact, "\(milliseconds) ms")
      #expect(fix.dop == DilutionOfPrecision(directions: used))
      #expect(fix.mode == .threeDimensional)
    }
    // Later in the second the sky itself has moved on: the reports hold it.
    #expect(Self.sky.satellites(at: Self.at(milliseconds: 900), from: Self.london) != exact)
    let next = scene.fix(at: Self.at(milliseconds: 1_000))
    #expect(
      next.satellites == Self.sky.satellites(at: Self.at(milliseconds: 1_000), from: Self.london))
    // Asked out of order, a second is the same.
    #expect(scene.fix(at: Self.at(milliseconds: 300)).satellites == exact)
  }

  /// Copies of a scene share what they computed; a copy given another sky or motion reports
  /// its own at once, within the same second, and the original keeps its own.
  @Test func aChangedSkyOrMotionIsSeenWithinTheSecond() {
    let scene = Scene(motion: FixedPosition(Self.london), sky: Self.sky)
    let before = scene.fix(at: Self.at(milliseconds: 100))
    var other = scene
    other.sky = StaticSky.typicalGPS
    #expect(other.fix(at: Self.at(milliseconds: 200)).satellites == StaticSky.typicalGPS.satellites)
    let melbourne = GeodeticPosition(known: -37.8136, 144.9631, altitudeMeters: 30)
    var moved = scene
    moved.motion = FixedPosition(melbourne)
    #expect(
      moved.fix(at: Self.at(milliseconds: 300)).satellites
        == Self.sky.satellites(at: Self.second, from: melbourne))
    #expect(scene.fix(at: Self.at(milliseconds: 400)).satellites == before.satellites)
  }

  /// A second's start is found before 1970 as after, and the earliest instant, whose second
  /// starts before any instant, is its own.
  @Test func theStartOfASecondIsFoundAtEveryInstant() {
    let cases: [(Int64, Int64)] = [
      (0, 0), (1, 0), (999_999_999, 0), (1_000_000_000, 1_000_000_000), (-1, -1_000_000_000),
      (-1_000_000_000, -1_000_000_000), (-1_000_000_001, -2_000_000_000),
      (.max, .max - .max % 1_000_000_000), (.min, .min),
    ]
    for (nanoseconds, start) in cases {
      #expect(
        SkyOfTheSecond.start(ofSecondHolding: UTCInstant(nanosecondsSinceEpoch: nanoseconds))
          == UTCInstant(nanosecondsSinceEpoch: start), "\(nanoseconds)")
    }
  }
}
