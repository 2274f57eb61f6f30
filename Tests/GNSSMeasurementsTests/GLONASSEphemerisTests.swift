import Geodesy
import Simulation
import Testing

@testable import GNSSMeasurements

@Suite struct GLONASSEphemerisTests {
  static var satellites: [OrbitingSatellite] {
    OrbitalSky.nominal(constellations: [.glonass]).orbitingSatellites
  }

  /// 2025-12-06 00:00:00 UTC on the GPS scale (GPS − UTC = 18 s): 03:00 Moscow time.
  static let midnight = 1_449_014_418.0

  static func distance(_ a: EarthCenteredPosition, _ b: EarthCenteredPosition) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z))
      .squareRoot()
  }

  @Test func tbIsTheMiddleOfTheHalfHourOfMoscowTime() {
    #expect(GPSTime.leapSeconds(atGPSSeconds: Self.midnight) == 18)
    // 03:00:00 Moscow time and the half hour up to 03:29:59 have tb 03:15, index 13.
    for offset in [0.0, 600, 1799.5] {
      let tb = GLONASSEphemeris.referenceGPSSeconds(near: Self.midnight + offset, leapSeconds: 18)
      #expect(tb == Self.midnight + 900, "\(offset)")
    }
    #expect(
      GLONASSEphemeris.referenceGPSSeconds(near: Self.midnight + 1800, leapSeconds: 18)
        == Self.midnight + 2700)
    #expect(
      GLONASSEphemeris.referenceGPSSeconds(near: Self.midnight - 0.5, leapSeconds: 18)
        == Self.midnight - 900)
    let satellite = Self.satellites[0]
    let ephemeris = GLONASSEphemeris(
      satellite: satellite, referenceGPSSeconds: Self.midnight + 900, leapSeconds: 18,
      clockBiasSeconds: 1.234e-4)
    #expect(ephemeris.referenceSecondsOfMoscowDay == 3 * 3600 + 900)
    #expect(ephemeris.frequencyChannel == GLONASSChannels.channel(ofSlot: satellite.id))
    #expect(ephemeris.clockBiasSeconds == (1.234e-4 / 0x1p-30).rounded() * 0x1p-30)
    #expect(
      ephemeris.clockOffsetSeconds(atGPSSeconds: Self.midnight) == -ephemeris.clockBiasSeconds)
  }

  /// At tb the state is the sky's, rounded (2⁻¹¹ km: within 0.43 m); integrated with J2 it
  /// leaves the sky's J2-free ellipse by metres to tens of metres in a quarter of an hour: an
  /// integrator without J2 (or with the rotation's terms wrong) would stay on it, or leave it
  /// by kilometres.
  @Test(arguments: satellites)
  func theIntegratedOrbitLeavesTheSkysByWhatJ2Makes(satellite: OrbitingSatellite) {
    let tb = Self.midnight + 900
    let ephemeris = GLONASSEphemeris(
      satellite: satellite, referenceGPSSeconds: tb, leapSeconds: 18, clockBiasSeconds: 0)
    let atReference = ephemeris.motion(atGPSSeconds: tb)
    #expect(Self.distance(atReference.position, satellite.orbit.position(atGPSSeconds: tb)) < 0.5)
    var largest = 0.0
    for offset in [-900.0, -450, 450, 900] {
      let integrated = ephemeris.motion(atGPSSeconds: tb + offset).position
      largest = max(
        largest,
        Self.distance(integrated, satellite.orbit.position(atGPSSeconds: tb + offset)))
    }
    #expect(largest > 2 && largest < 60, "\(satellite.id): \(largest) m")
  }

  /// Steps of 60 s lose nothing a receiver would see: 1 s steps agree within a centimetre.
  @Test func sixtySecondStepsAgreeWithOneSecondSteps() {
    let satellite = Self.satellites[3]
    let tb = Self.midnight + 900
    let ephemeris = GLONASSEphemeris(
      satellite: satellite, referenceGPSSeconds: tb, leapSeconds: 18, clockBiasSeconds: 0)
    var state = GLONASSEphemeris.State(position: ephemeris.position, velocity: ephemeris.velocity)
    for _ in 0..<900 { state = state.advanced(by: 1, acceleration: ephemeris.acceleration) }
    let coarse = ephemeris.motion(atGPSSeconds: tb + 900)
    #expect(Self.distance(state.position, coarse.position) < 0.01)
    #expect(Self.distance(state.velocity, coarse.velocity) < 1e-5)
  }

  /// The shared arcs give what integrating from tb gives, up to the rounding of the last
  /// partial step's length, across the half period and beyond it.
  @Test func theArcsGiveTheIntegratedMotion() {
    let arcs = GLONASSArcs()
    let tb = Self.midnight + 900
    for satellite in Self.satellites.prefix(3) {
      let ephemeris = GLONASSEphemeris(
        satellite: satellite, referenceGPSSeconds: tb, leapSeconds: 18, clockBiasSeconds: 0)
      for offset in [-1000.0, -900, -899.925, -60, -0.5, 0, 0.075, 59.999, 60, 612.3, 900, 959] {
        let cached = arcs.motion(of: ephemeris, atGPSSeconds: tb + offset)
        let integrated = ephemeris.motion(atGPSSeconds: tb + offset)
        #expect(Self.distance(cached.position, integrated.position) < 1e-6, "\(offset)")
        #expect(Self.distance(cached.velocity, integrated.velocity) < 1e-9, "\(offset)")
      }
    }
    #expect(
      GLONASSArcs.arc(
        of: GLONASSEphemeris(
          satellite: Self.satellites[0], referenceGPSSeconds: tb, leapSeconds: 18,
          clockBiasSeconds: 0)
      ).count == 31)
  }

  /// The engine builds each slot's ephemeris once per tb, and what it keeps is what it builds.
  @Test func theEngineKeepsTheEphemerisItBuilds() throws {
    let engine = MeasurementEngine(satellites: Self.satellites, seed: 5)
    for offset in [0.0, 100, 1799, 1800, 1900, -1] {
      let time = Self.midnight + offset
      let kept = try #require(engine.glonassEphemeris(slot: 3, atGPSSeconds: time))
      let again = try #require(engine.glonassEphemeris(slot: 3, atGPSSeconds: time))
      let built = GLONASSEphemeris(
        satellite: try #require(Self.satellites.first { $0.id == 3 }),
        referenceGPSSeconds: GLONASSEphemeris.referenceGPSSeconds(near: time, leapSeconds: 18),
        leapSeconds: 18, clockBiasSeconds: engine.clockBiasSeconds(of: .glonass, number: 3))
      #expect(kept == built && again == built, "\(offset)")
    }
  }

  /// Where one ephemeris hands over to the next (half-way between their tb), the two place the
  /// satellite 12 to 16 m apart (the J2 orbits from two states of the J2-free sky): the
  /// measurements' truth steps by that much, as does every receiver's computed range, which
  /// switches ephemeris at the same moment. Under 20 m; a tb off by a period would be km.
  @Test(arguments: satellites)
  func adjacentEphemeridesMeetWithinMetres(satellite: OrbitingSatellite) {
    let earlier = GLONASSEphemeris(
      satellite: satellite, referenceGPSSeconds: Self.midnight + 900, leapSeconds: 18,
      clockBiasSeconds: 0)
    let later = GLONASSEphemeris(
      satellite: satellite, referenceGPSSeconds: Self.midnight + 2700, leapSeconds: 18,
      clockBiasSeconds: 0)
    let handover = Self.midnight + 1800
    let step = Self.distance(
      earlier.motion(atGPSSeconds: handover).position,
      later.motion(atGPSSeconds: handover).position)
    #expect(step < 20, "\(satellite.id): \(step) m")
  }
}
