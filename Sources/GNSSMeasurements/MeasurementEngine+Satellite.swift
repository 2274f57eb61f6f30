import Geodesy
import Simulation

extension MeasurementEngine {
  /// Appends one satellite's measurements on each of `signals` its C/N0 (that of its first
  /// signal) leaves tracked to `measurements`; none for a satellite the engine does not know.
  func appendMeasurements(
    of key: SatelliteKey, signals: [GNSSSignal], carrierToNoise: Int, receiver: ReceiverState,
    time: UTCInstant, to measurements: inout [RawMeasurement]
  ) {
    guard let satellite = key.satellite(in: satellites) else { return }
    let guessedTransmission = receiver.gpsSeconds - SignalPath.guessedFlightSeconds
    let path: SignalPath
    let satelliteClock: Double
    var channel = 0
    if key.constellation == .glonass {
      // The truth is the ephemeris in force (`GLONASSEphemeris`) when the receiver's clock
      // reads the epoch's time, which is how a receiver such as RTKLIB picks it: on a half
      // hour, the new one.
      guard
        let ephemeris = glonassEphemeris(
          slot: key.id, atGPSSeconds: receiver.gpsSeconds + receiver.clockBiasSeconds)
      else { return }
      path = SignalPath(
        motion: glonassArcs.motion(of: ephemeris, atGPSSeconds: guessedTransmission),
        receiver: receiver)
      satelliteClock = ephemeris.clockOffsetSeconds(
        atGPSSeconds: receiver.gpsSeconds - path.flightSeconds)
      channel = ephemeris.frequencyChannel
    } else {
      path = SignalPath(
        motion: satellite.orbit.positionAndVelocity(atGPSSeconds: guessedTransmission),
        receiver: receiver)
      guard
        let clock = satelliteClockOffsetSeconds(
          of: satellite, atGPSSeconds: receiver.gpsSeconds - path.flightSeconds,
          receiverGPSSeconds: receiver.gpsSeconds)
      else { return }
      satelliteClock = clock
    }
    let direction = receiver.frame.direction(of: path.satellite)
    let l1IonosphereMeters = ionosphere.delayMeters(
      latitude: receiver.geodetic.latitude, longitude: receiver.geodetic.longitude,
      azimuthDegrees: direction.azimuthDegrees, elevationDegrees: direction.elevationDegrees,
      gpsSecondsOfWeek: receiver.gpsSecondsOfWeek)
    let troposphereMeters = receiver.troposphere.delayMeters(
      elevationDegrees: direction.elevationDegrees)
    let clocksMeters =
      GPSSignal.speedOfLight * (receiver.clockBiasSeconds - satelliteClock)
    let rangeRate =
      path.rangeRateMetersPerSecond + GPSSignal.speedOfLight * clock.driftSecondsPerSecond
    let lockTime = lockTimeMilliseconds(
      of: satellite.orbit, elevationDegrees: direction.elevationDegrees, receiver: receiver)
    for signal in signals {
      let strength = carrierToNoise + signal.carrierToNoiseOffset
      guard strength >= GNSSSignal.trackingThreshold else { continue }
      let frequency = signal.frequencyHertz(channel: channel)
      let wavelength = GPSSignal.speedOfLight / frequency
      let scale = GPSSignal.l1FrequencyHertz / frequency
      let ionosphereMeters = l1IonosphereMeters * scale * scale
      var generator = noise.generator(
        constellation: key.constellation, id: key.id, signalIndex: signal.index, time: time)
      let codeSigma = MeasurementNoise.pseudorangeSigmaMeters(carrierToNoise: strength)
      let phaseSigma = MeasurementNoise.carrierPhaseSigmaCycles(carrierToNoise: strength)
      let pseudorange =
        path.rangeMeters + clocksMeters + ionosphereMeters + troposphereMeters
        + codeSigma * generator.nextStandardNormal()
      let carrierPhase =
        (path.rangeMeters + clocksMeters - ionosphereMeters + troposphereMeters) / wavelength
        + ambiguityCycles(of: key.constellation, id: key.id, signal: signal)
        + phaseSigma * generator.nextStandardNormal()
      measurements.append(
        RawMeasurement(
          constellation: key.constellation, id: key.id, signal: signal, frequencyChannel: channel,
          pseudorangeMeters: pseudorange, carrierPhaseCycles: carrierPhase,
          dopplerHertz: -rangeRate / wavelength + 0.02 * generator.nextStandardNormal(),
          carrierToNoise: strength, lockTimeMilliseconds: lockTime,
          pseudorangeSigmaMeters: codeSigma, carrierPhaseSigmaCycles: phaseSigma))
    }
  }

  /// How long the satellite has been tracked, milliseconds, at most 64,500: since it rose
  /// (found by halving the interval) or since the receiver started tracking, the later. A
  /// satellite above `risenElevationDegrees` now was up 64.5 s ago: a GNSS satellite's
  /// elevation changes by less than 0.7° a minute.
  func lockTimeMilliseconds(
    of orbit: KeplerianOrbit, elevationDegrees: Double, receiver: ReceiverState
  ) -> Int {
    let now = receiver.gpsSeconds
    let earliest = max(
      now - Self.longestLockSeconds, trackingStartGPSSeconds,
      reacquiredGPSSeconds ?? -Double.infinity)
    if elevationDegrees > Self.risenElevationDegrees {
      return max(0, Int(((now - earliest) * 1000).rounded()))
    }
    let isUp = { (seconds: Double) -> Bool in
      receiver.frame.eastNorthUp(of: orbit.position(atGPSSeconds: seconds)).up > 0
    }
    if isUp(earliest) { return max(0, Int(((now - earliest) * 1000).rounded())) }
    var below = earliest
    var above = now
    for _ in 0..<12 {
      let middle = (below + above) / 2
      if isUp(middle) { above = middle } else { below = middle }
    }
    return Int((now - above) * 1000)
  }
}

/// The geometry of one signal from a satellite to the receiver.
struct SignalPath {
  /// The satellite at transmission, in the ECEF frame of the arrival time (Sagnac rotation).
  var satellite: EarthCenteredPosition
  /// The geometric range, meters.
  var rangeMeters: Double
  /// The time of flight, seconds.
  var flightSeconds: Double
  /// The range's rate of change, m/s.
  var rangeRateMetersPerSecond: Double

  /// A first guess of the time of flight, seconds.
  static let guessedFlightSeconds = 0.075

  /// The path from a satellite to the receiver: the light time iterated to below a nanosecond.
  /// `motion` is the satellite's position and velocity (Earth-fixed) at a first guess of the
  /// transmission time (`guessedFlightSeconds` before the arrival); each iteration moves the
  /// satellite along its velocity from there, which errs by half its acceleration (0.6 m/s²)
  /// times the square of the guess's error (at most 15 ms): under 0.1 mm.
  init(
    motion: (position: EarthCenteredPosition, velocity: EarthCenteredPosition),
    receiver: MeasurementEngine.ReceiverState
  ) {
    let station = receiver.earthCentered
    let guess = Self.guessedFlightSeconds
    var flight = guess
    var position = EarthCenteredPosition(x: 0, y: 0, z: 0)
    var range = 0.0
    for _ in 0..<4 {
      let earlier = flight - guess
      position = Self.rotated(
        EarthCenteredPosition(
          x: motion.position.x - motion.velocity.x * earlier,
          y: motion.position.y - motion.velocity.y * earlier,
          z: motion.position.z - motion.velocity.z * earlier),
        bySeconds: flight)
      range = Self.distance(position, station)
      let next = range / GPSSignal.speedOfLight
      let converged = abs(next - flight) < 1e-10
      flight = next
      if converged { break }
    }
    satellite = position
    rangeMeters = range
    flightSeconds = flight
    // The satellite's velocity turned into the arrival's frame, as its position was.
    let satelliteVelocity = Self.rotated(motion.velocity, bySeconds: flight)
    let velocity = receiver.velocity
    rangeRateMetersPerSecond =
      ((satelliteVelocity.x - velocity.x) * (position.x - station.x)
        + (satelliteVelocity.y - velocity.y) * (position.y - station.y)
        + (satelliteVelocity.z - velocity.z) * (position.z - station.z)) / range
  }

  /// A position rotated about the Earth's axis by the Earth's turn in `seconds`: from the frame
  /// of the transmission time to that of the arrival.
  static func rotated(_ position: EarthCenteredPosition, bySeconds seconds: Double)
    -> EarthCenteredPosition
  {
    let angle = GPSSignal.earthRotationRate * seconds
    let cosAngle = MeasurementMath.cosine(angle)
    let sinAngle = MeasurementMath.sine(angle)
    return EarthCenteredPosition(
      x: cosAngle * position.x + sinAngle * position.y,
      y: -sinAngle * position.x + cosAngle * position.y, z: position.z)
  }

  static func distance(_ a: EarthCenteredPosition, _ b: EarthCenteredPosition) -> Double {
    let dx = a.x - b.x
    let dy = a.y - b.y
    let dz = a.z - b.z
    return (dx * dx + dy * dy + dz * dz).squareRoot()
  }
}
