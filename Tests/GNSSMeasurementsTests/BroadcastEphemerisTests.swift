import Geodesy
import Simulation
import Testing

@testable import GNSSMeasurements

@Suite struct BroadcastEphemerisTests {
  /// An almanac-like orbit: eccentric, its node drifting, its week modulo 1024.
  static let eccentric = OrbitingSatellite(
    constellation: .gps, id: 5, isHealthy: true,
    orbit: KeplerianOrbit(
      semiMajorAxisMeters: 5153.6 * 5153.6, eccentricity: 0.0123, inclinationRadians: 0.958,
      rightAscensionAtWeekRadians: -1.23, rateOfRightAscensionRadiansPerSecond: -8.1e-9,
      argumentOfPerigeeRadians: 0.77, meanAnomalyRadians: 2.1, referenceSecondsOfWeek: 405_504,
      referenceWeek: 376, weekModulus: 1024))

  static func ephemeris(toe: Double) -> BroadcastEphemeris {
    BroadcastEphemeris(
      satellite: eccentric, referenceGPSSeconds: toe, clockBiasSeconds: 1.2345e-4,
      clockDriftSecondsPerSecond: 0)
  }

  static var satellites: [OrbitingSatellite] {
    OrbitalSky.nominal(constellations: [.gps]).orbitingSatellites + [eccentric]
  }

  @Test(arguments: satellites)
  func theBroadcastPositionStaysWithinCentimetersOfTheSkysOrbit(satellite: OrbitingSatellite) {
    let toe = 1_451_606_400.0  // GPS week 2400, day 1, 00:00: a two-hour mark
    let ephemeris = BroadcastEphemeris(
      satellite: satellite, referenceGPSSeconds: toe, clockBiasSeconds: 0,
      clockDriftSecondsPerSecond: 0)
    var largest = 0.0
    for offset in stride(from: -7200.0, through: 7200, by: 600) {
      let broadcast = ephemeris.position(atGPSSeconds: toe + offset)
      let sky = satellite.orbit.position(atGPSSeconds: toe + offset)
      let dx = broadcast.x - sky.x
      let dy = broadcast.y - sky.y
      let dz = broadcast.z - sky.z
      largest = max(largest, (dx * dx + dy * dy + dz * dz).squareRoot())
    }
    #expect(largest < 0.1, "\(satellite.id): \(largest) m")
  }

  @Test func theValuesAreMultiplesOfTheirBroadcastScale() {
    let ephemeris = Self.ephemeris(toe: 1_451_606_400)
    // 1,451,606,400 s is 2400 weeks and one day.
    #expect(ephemeris.referenceSecondsOfWeek == 86_400)
    #expect(ephemeris.week == 2400)
    #expect(ephemeris.issueOfData == Int(1_451_606_400.0 / 7200) % 256)
    let integer = ephemeris.squareRootOfSemiMajorAxis / 0x1p-19
    #expect(integer == integer.rounded())
    let anomaly = ephemeris.meanAnomalyRadians / .pi / 0x1p-31
    #expect(anomaly == anomaly.rounded())
    let bias = ephemeris.clockBiasSeconds / 0x1p-31
    #expect(bias == bias.rounded())
    #expect(abs(ephemeris.clockBiasSeconds - 1.2345e-4) < 0x1p-31)
  }
}
