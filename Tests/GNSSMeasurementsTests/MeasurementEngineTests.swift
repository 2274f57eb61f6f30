import Geodesy
import Simulation
import Testing

@testable import GNSSMeasurements

@Suite struct MeasurementEngineTests {
  static let sky = OrbitalSky.nominal(constellations: [.gps], seed: 3)
  static let engine = MeasurementEngine(satellites: sky.orbitingSatellites, seed: 3)
  static let place = GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80)
  static let start = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)
  static let still = EarthCenteredPosition(x: 0, y: 0, z: 0)

  static func epoch(at time: UTCInstant) -> MeasurementEpoch {
    engine.epoch(
      at: time, position: place, velocity: still,
      tracked: sky.satellites(at: time, from: place), epochPeriodSeconds: 1)
  }

  @Test func thePseudorangeIsTheRangeFromTheBroadcastOrbitPlusClocksAndAtmosphere() throws {
    let epoch = Self.epoch(at: Self.start)
    #expect(epoch.measurements.count >= 6)
    let gpsTime = GPSTime(Self.start)
    let bias = Self.engine.clock.biasSeconds(atSecondsOfWeek: gpsTime.secondsOfWeek)
    let arrival = gpsTime.secondsSinceEpoch - bias
    let station = EarthCenteredPosition(Self.place)
    for measurement in epoch.measurements {
      let ephemeris = try #require(
        Self.engine.ephemeris(number: measurement.id, atGPSSeconds: arrival))
      // Light time by hand, from the broadcast ephemeris rather than the sky's orbit.
      var flight = 0.07
      var range = 0.0
      var satellite = station
      for _ in 0..<5 {
        let position = ephemeris.position(atGPSSeconds: arrival - flight)
        let angle = GPSSignal.earthRotationRate * flight
        satellite = EarthCenteredPosition(
          x: position.x * angle.cosineForTest + position.y * angle.sineForTest,
          y: -position.x * angle.sineForTest + position.y * angle.cosineForTest, z: position.z)
        let dx = satellite.x - station.x
        let dy = satellite.y - station.y
        let dz = satellite.z - station.z
        range = (dx * dx + dy * dy + dz * dz).squareRoot()
        flight = range / GPSSignal.speedOfLight
      }
      let direction = TopocentricDirection(of: satellite, from: Self.place)
      let clocks =
        GPSSignal.speedOfLight
        * (bias - ephemeris.clockOffsetSeconds(atGPSSeconds: arrival - flight))
      let ionosphere = Self.engine.ionosphere.delayMeters(
        latitude: Self.place.latitude, longitude: Self.place.longitude,
        azimuthDegrees: direction.azimuthDegrees, elevationDegrees: direction.elevationDegrees,
        gpsSecondsOfWeek: gpsTime.secondsOfWeek - bias)
      let troposphere = Self.engine.troposphere.delayMeters(
        latitude: Self.place.latitude, heightMeters: Self.place.altitudeMeters,
        elevationDegrees: direction.elevationDegrees)
      let residual =
        measurement.pseudorangeMeters - range - clocks - ionosphere - troposphere
      #expect(abs(residual) < 6 * measurement.pseudorangeSigmaMeters, "G\(measurement.id)")
    }
  }

  @Test func theDopplerFollowsTheCarrierPhase() throws {
    let first = Self.epoch(at: Self.start)
    let second = Self.epoch(at: Self.start.adding(nanoseconds: 1_000_000_000))
    for measurement in first.measurements {
      guard let next = second.measurements.first(where: { $0.id == measurement.id }) else {
        continue
      }
      let phaseRate = next.carrierPhaseCycles - measurement.carrierPhaseCycles
      let doppler = (measurement.dopplerHertz + next.dopplerHertz) / 2
      #expect(abs(-phaseRate - doppler) < 0.5, "G\(measurement.id)")
      #expect(abs(doppler) < 6000)
    }
  }

  /// A satellite long up reports the longest lock time, unless the receiver has only just
  /// started: then its lock time counts from the start, one epoch period at a time.
  @Test func lockTimesCountFromRisingOrFromTheStart() {
    let first = Self.epoch(at: Self.start)
    #expect(first.measurements.contains { $0.lockTimeMilliseconds == 64_500 })
    #expect(first.measurements.allSatisfy { (0...64_500).contains($0.lockTimeMilliseconds) })
    var started = Self.engine
    started.trackingStartGPSSeconds = GPSTime(Self.start).secondsSinceEpoch
    let locks = (0..<3).map { second in
      started.epoch(
        at: Self.start.adding(nanoseconds: Int64(second) * 1_000_000_000), position: Self.place,
        velocity: Self.still, tracked: Self.sky.satellites(at: Self.start, from: Self.place),
        epochPeriodSeconds: 1
      ).measurements.map(\.lockTimeMilliseconds)
    }
    // The clock's bias (under 0.5 ms) moves the arrival time from the epoch's.
    #expect(locks[0].allSatisfy { $0 <= 1 }, "\(locks[0])")
    #expect(locks[2].allSatisfy { abs($0 - 2000) <= 1 }, "\(locks[2])")
  }

  @Test func theSameSeedAndTimeGiveTheSameMeasurements() {
    #expect(Self.epoch(at: Self.start) == Self.epoch(at: Self.start))
    let other = MeasurementEngine(satellites: Self.sky.orbitingSatellites, seed: 4)
    let otherEpoch = other.epoch(
      at: Self.start, position: Self.place, velocity: Self.still,
      tracked: Self.sky.satellites(at: Self.start, from: Self.place), epochPeriodSeconds: 1)
    #expect(otherEpoch != Self.epoch(at: Self.start))
  }
}

extension Double {
  fileprivate var cosineForTest: Double { MeasurementMath.cosine(self) }
  fileprivate var sineForTest: Double { MeasurementMath.sine(self) }
}
