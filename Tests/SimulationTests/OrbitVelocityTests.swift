import Geodesy
import Testing

@testable import Simulation

/// The analytic velocity of an orbit is the rate of its positions: a centred difference of
/// `position(atGPSSeconds:)` over ±1 s agrees within 1 mm/s (times since the GPS epoch are
/// about 1.5e9 s, whose rounding moves a position by half a millimetre), for a circular nominal orbit
/// and an eccentric one whose node drifts; and the position is the same.
struct OrbitVelocityTests {
  static let eccentric = KeplerianOrbit(
    semiMajorAxisMeters: 26_560_000, eccentricity: 0.02, inclinationRadians: 0.96,
    rightAscensionAtWeekRadians: -1.2, rateOfRightAscensionRadiansPerSecond: -8e-9,
    argumentOfPerigeeRadians: 0.7, meanAnomalyRadians: 2.1, referenceSecondsOfWeek: 345_600,
    referenceWeek: 2399)

  @Test(arguments: [NominalConstellation.satellites(of: .gps)[0].orbit, eccentric])
  func theVelocityIsTheRateOfThePositions(orbit: KeplerianOrbit) {
    for offset in stride(from: 0.0, to: 86_400, by: 3_600) {
      let seconds = 2399 * 604_800 + 345_600 + offset
      let (position, velocity) = orbit.positionAndVelocity(atGPSSeconds: seconds)
      let exact = orbit.position(atGPSSeconds: seconds)
      #expect(
        abs(position.x - exact.x) + abs(position.y - exact.y) + abs(position.z - exact.z) < 1e-6)
      let before = orbit.position(atGPSSeconds: seconds - 1)
      let after = orbit.position(atGPSSeconds: seconds + 1)
      let rate = [
        (after.x - before.x) / 2, (after.y - before.y) / 2, (after.z - before.z) / 2,
      ]
      for (a, b) in zip(rate, [velocity.x, velocity.y, velocity.z]) {
        #expect(abs(a - b) < 0.001, "\(rate) vs \(velocity) at +\(offset) s")
      }
    }
  }
}
