import Geodesy
import Simulation

/// Pseudorange, carrier phase, Doppler, C/N0 and lock time of each signal of each GPS, GLONASS,
/// Galileo and BeiDou satellite a receiver tracks, computed from the same orbits as the
/// simulated sky.
///
/// The receiver measures when its own clock (`ReceiverClockModel`) reads the epoch time, so the
/// signals arrive at that time minus the clock's bias. Each satellite's position comes from its
/// orbit at the transmit time (found by iterating the light time) rotated by the Earth's turn
/// during the flight (Sagnac); its clock is that of its broadcast ephemeris. The code is delayed
/// and the carrier advanced by the broadcast Klobuchar ionosphere; both are delayed by the
/// Saastamoinen troposphere; seeded white noise follows C/N0. Each signal (`GNSSSignal`) has its
/// own wavelength, ionospheric delay (the L1 delay times (f_L1/f)², as a receiver using the GPS
/// broadcast model scales it), C/N0 (its offset from the system's first signal), noise and
/// ambiguity. Galileo's and BeiDou's pseudoranges count on the receiver's GPS-based clock, as a
/// multi-system receiver's do: their system times are GPS time (BeiDou's 14 s behind, which
/// the ephemeris's time scale takes out), with no inter-system offset. GLONASS's satellites move
/// as their broadcast ephemeris in force says (`GLONASSEphemeris`: the sky's state at tb
/// integrated with J2), their clocks count GLONASS time (UTC + 3 h, so GPS time less the leap
/// seconds, again with no offset), and each signal is on its satellite's frequency channel.
///
/// # Error model
///
/// With ρ the geometric range, c the speed of light, dtᵣ the receiver clock's bias, dtˢ the
/// satellite clock's offset (relativistic term included), I the L1 ionospheric delay, T the
/// tropospheric delay, λ the signal's wavelength and N a whole number of cycles:
///
/// - pseudorange P = ρ + c(dtᵣ − dtˢ) + I + T + εₚ, εₚ ~ N(0, σₚ²), σₚ from 0.15 m at 48 dB-Hz
///   to 0.6 m at 20 dB-Hz (`MeasurementNoise`);
/// - carrier phase Φ = (ρ + c(dtᵣ − dtˢ) − I + T) / λ + N + ε_Φ, ε_Φ ~ N(0, σ_Φ²), σ_Φ from
///   a PLL's thermal jitter at the satellite's C/N0 (0.003 cycles at 45 dB-Hz to 0.056 at 20,
///   `MeasurementNoise`); N is fixed from one lock to the next: a fault that cuts every signal
///   (`reacquiredGPSSeconds`) gives every carrier a new N and starts its lock time again (a
///   cycle slip);
/// - Doppler D = −(ρ̇ + c ḋtᵣ) / λ + ε_D, ε_D ~ N(0, (0.02 Hz)²), so that D is minus the
///   phase's rate (the satellite clocks do not drift: af1 = 0);
/// - the noise is white (independent between epochs and satellites), seeded by the sky's seed,
///   the satellite and the epoch's time, so a run repeats exactly.
///
/// What is left out, and so what a solver using the broadcast models will not see: the
/// broadcast ephemeris and clock are the truth up to their rounding (centimetres; GLONASS's
/// half a metre), so there is no orbit or clock error (a GLONASS satellite steps by 12–16 m
/// when the next half hour's ephemeris takes over, as does the range a receiver holding both
/// computes, which switches at the same moment; one decoding the strings live has the new
/// ephemeris 8 s later, when string 4 has come, and errs by that step meanwhile); the
/// ionosphere and troposphere are exactly the Klobuchar model of the broadcast coefficients
/// and RTKLIB's standard-atmosphere Saastamoinen, so a single-point solution with those models
/// cancels them; T_GD is zero; there is no multipath
/// and no inter-signal bias. A single-point solution therefore errs by the code noise times the
/// DOP (decimetres to a metre), less than a real receiver's 2–5 m.
public struct MeasurementEngine: Sendable {
  /// The satellites of the systems with broadcast ephemerides (GPS, GLONASS, Galileo, BeiDou),
  /// at their `SatelliteKey.slot`.
  let satellites: [OrbitingSatellite?]
  /// The GLONASS ephemerides' integrated arcs, shared by the engine's copies.
  let glonassArcs = GLONASSArcs()
  /// The noise and the carrier ambiguities.
  public var noise: MeasurementNoise
  /// The receiver's clock.
  public var clock: ReceiverClockModel
  /// The ionosphere, whose coefficients subframe 4 page 18 broadcasts.
  public var ionosphere: KlobucharModel
  /// The troposphere.
  public var troposphere: SaastamoinenModel
  /// The seed of the satellites' clock offsets.
  let seed: UInt64
  /// When the receiver started tracking (GPS time, seconds since the GPS epoch): no lock time
  /// reaches back further. By default the satellites count as tracked since they rose.
  public var trackingStartGPSSeconds = -Double.infinity
  /// When the receiver locked its carriers again after a cut (GPS seconds), nil when it never
  /// lost them: no lock time reaches back further, and every carrier has a new ambiguity from
  /// then on (a cycle slip, which RXM-RAWX's lock time going back to 0 tells).
  public var reacquiredGPSSeconds: Double?

  /// How long before an epoch a satellite must have been above the horizon to report the
  /// longest lock time, seconds (RXM-RAWX's `locktime` saturates at 64,500 ms).
  static let longestLockSeconds = 64.5
  /// Above this elevation a satellite has been up for longer than `longestLockSeconds`.
  static let risenElevationDegrees = 1.0

  /// A satellite: its system and number.
  struct SatelliteKey: Hashable {
    var constellation: Constellation
    var id: Int

    /// Satellite numbers run below this in each system.
    static let numbersPerSystem = 64

    /// Its place in a table of every system's satellites, nil for a number out of range.
    var slot: Int? {
      (0..<Self.numbersPerSystem).contains(id)
        ? constellation.systemID * Self.numbersPerSystem + id : nil
    }

    /// The size of that table (NMEA system IDs run 1–4).
    static let slots = 5 * numbersPerSystem

    /// The satellite at this key's slot of `table`, nil when there is none.
    func satellite(in table: [OrbitingSatellite?]) -> OrbitingSatellite? {
      slot.flatMap { table[$0] }
    }
  }

  /// An engine over the GPS, GLONASS, Galileo and BeiDou satellites among `satellites`, its
  /// noise and clocks seeded.
  public init(satellites: [OrbitingSatellite], seed: UInt64) {
    var table = [OrbitingSatellite?](repeating: nil, count: SatelliteKey.slots)
    for satellite in satellites
    where BroadcastConventions.of(satellite.constellation) != nil
      || satellite.constellation == .glonass
    {
      if let slot = SatelliteKey(constellation: satellite.constellation, id: satellite.id).slot {
        table[slot] = satellite
      }
    }
    self.satellites = table
    noise = MeasurementNoise(seed: seed)
    clock = ReceiverClockModel()
    ionosphere = .typical
    troposphere = SaastamoinenModel()
    self.seed = seed
  }

  /// The ephemeris in force at `gpsSeconds` for satellite `number` of `constellation` (GPS
  /// when not given): its reference time the nearest `ephemerisReferenceSeconds`, nil for a
  /// satellite the engine does not know.
  public func ephemeris(
    of constellation: Constellation = .gps, number: Int, atGPSSeconds gpsSeconds: Double
  ) -> BroadcastEphemeris? {
    guard
      let satellite = SatelliteKey(constellation: constellation, id: number).satellite(
        in: satellites)
    else { return nil }
    let toe = Self.ephemerisReferenceSeconds(of: constellation, near: gpsSeconds)
    return BroadcastEphemeris(
      satellite: satellite, referenceGPSSeconds: toe,
      clockBiasSeconds: clockBiasSeconds(of: constellation, number: number),
      clockDriftSecondsPerSecond: 0)
  }

  /// The GLONASS ephemeris in force at `gpsSeconds` for the satellite in orbital slot `slot`
  /// (`GLONASSEphemeris.referenceGPSSeconds`), nil for a satellite the engine does not know.
  public func glonassEphemeris(slot: Int, atGPSSeconds gpsSeconds: Double) -> GLONASSEphemeris? {
    guard
      let satellite = SatelliteKey(constellation: .glonass, id: slot).satellite(in: satellites)
    else { return nil }
    let leapSeconds = GPSTime.leapSeconds(atGPSSeconds: gpsSeconds)
    let tb = GLONASSEphemeris.referenceGPSSeconds(near: gpsSeconds, leapSeconds: leapSeconds)
    return glonassArcs.ephemeris(slot: slot, referenceGPSSeconds: tb) {
      GLONASSEphemeris(
        satellite: satellite, referenceGPSSeconds: tb, leapSeconds: leapSeconds,
        clockBiasSeconds: clockBiasSeconds(of: .glonass, number: slot))
    }
  }

  /// The whole cycles in the carrier phase of `signal` of satellite `id` of `constellation`:
  /// its ambiguity since the carriers were last locked (`reacquiredGPSSeconds`).
  public func ambiguityCycles(of constellation: Constellation, id: Int, signal: GNSSSignal)
    -> Double
  {
    noise.ambiguityCycles(
      constellation: constellation, id: id, signalIndex: signal.index,
      lockedGPSSeconds: reacquiredGPSSeconds)
  }

  /// The seeded offset of a satellite's clock from its system's time, seconds: within
  /// ±0.5 ms, steady (af1 = 0) so that it stays the same from one ephemeris to the next.
  func clockBiasSeconds(of constellation: Constellation, number: Int) -> Double {
    // GPS's clocks keep the seeds they had when the engine knew only GPS.
    let system = UInt64(constellation.systemID - 1) << 48
    var mixer = FaultRandomNumberGenerator(
      seed: seed ^ system ^ (UInt64(number) << 32) ^ 0x434C_4F43)
    return (Double(mixer.next() >> 11) * 0x1.0p-53 - 0.5) * 1e-3
  }

  /// The satellite clock's offset at `gpsSeconds` as its broadcast ephemeris in force at
  /// `receiverGPSSeconds` gives it: for a circular orbit (e = 0: no relativistic term, af1 = 0)
  /// that is af0, without building the ephemeris.
  func satelliteClockOffsetSeconds(
    of satellite: OrbitingSatellite, atGPSSeconds gpsSeconds: Double, receiverGPSSeconds: Double
  ) -> Double? {
    guard satellite.orbit.eccentricity == 0,
      let conventions = BroadcastConventions.of(satellite.constellation)
    else {
      return ephemeris(
        of: satellite.constellation, number: satellite.id, atGPSSeconds: receiverGPSSeconds
      )?.clockOffsetSeconds(atGPSSeconds: gpsSeconds)
    }
    return LNAVScale(unit: conventions.clockBiasUnit, isAngle: false).rounded(
      clockBiasSeconds(of: satellite.constellation, number: satellite.id))
  }

  /// The reference time (GPS seconds) of the ephemeris in force at `gpsSeconds`, on the
  /// system's time scale a multiple of its period: GPS's nearest two-hour mark, Galileo's
  /// latest ten minutes, BeiDou's latest hour of BDT (`BroadcastConventions`).
  public static func ephemerisReferenceSeconds(
    of constellation: Constellation, near gpsSeconds: Double
  ) -> Double {
    let conventions = BroadcastConventions.of(constellation) ?? .gps
    let behind = conventions.secondsBehindGPS
    let period = conventions.ephemerisPeriodSeconds
    let periods = (gpsSeconds - behind) / period
    return (conventions.referenceIsPast ? periods.rounded(.down) : periods.rounded()) * period
      + behind
  }

  /// The measurements at the receiver time `time` of the satellites among `tracked` that have
  /// a C/N0, on each of `signals` of their system whose C/N0 reaches the tracking threshold (by
  /// default GPS L1 C/A only), for a receiver at `position` (its altitude above the ellipsoid)
  /// moving at `velocity` (ECEF, m/s); `epochPeriodSeconds` tells whether the clock stepped
  /// since the previous epoch. The measurements come satellite by satellite, in the order of
  /// `tracked`, each's signals in the order given.
  public func epoch(
    at time: UTCInstant, position: GeodeticPosition, velocity: EarthCenteredPosition,
    tracked: [SatelliteInView], signals: [Constellation: [GNSSSignal]] = [.gps: [.gpsL1CA]],
    epochPeriodSeconds: Double
  ) -> MeasurementEpoch {
    let gpsTime = GPSTime(time)
    let receiverSecondsOfWeek = gpsTime.secondsOfWeek
    let bias = clock.biasSeconds(atSecondsOfWeek: receiverSecondsOfWeek)
    let receiver = ReceiverState(
      gpsSeconds: Double(gpsTime.week) * GPSSignal.secondsPerWeek + receiverSecondsOfWeek - bias,
      clockBiasSeconds: bias, position: position, velocity: velocity, troposphere: troposphere)
    // Each system's signals looked up once, not once a satellite.
    var signalsBySystem = [[GNSSSignal]](repeating: [], count: Constellation.allCases.count)
    for (constellation, systemSignals) in signals {
      signalsBySystem[constellation.ordinal] = systemSignals
    }
    var measurements: [RawMeasurement] = []
    measurements.reserveCapacity(tracked.count * (signalsBySystem.lazy.map { $0.count }.max() ?? 0))
    for satellite in tracked {
      guard let carrierToNoise = satellite.snr else { continue }
      let systemSignals = signalsBySystem[satellite.constellation.ordinal]
      guard !systemSignals.isEmpty else { continue }
      appendMeasurements(
        of: SatelliteKey(constellation: satellite.constellation, id: satellite.id),
        signals: systemSignals, carrierToNoise: carrierToNoise, receiver: receiver, time: time,
        to: &measurements)
    }
    let reset =
      clock.stepCount(atSecondsOfWeek: receiverSecondsOfWeek)
      != clock.stepCount(atSecondsOfWeek: receiverSecondsOfWeek - epochPeriodSeconds)
    return MeasurementEpoch(
      receiverSecondsOfWeek: receiverSecondsOfWeek, week: gpsTime.week,
      leapSeconds: gpsTime.leapSeconds, clockWasReset: reset, measurements: measurements)
  }

  /// Where the receiver is when the signals arrive, and its clock.
  struct ReceiverState {
    /// GPS time of arrival, seconds since the GPS epoch.
    var gpsSeconds: Double
    /// The same, seconds of its week.
    var gpsSecondsOfWeek: Double
    var clockBiasSeconds: Double
    var frame: LocalTangentFrame
    var geodetic: GeodeticPosition
    /// ECEF at arrival (the epoch's position moved back by the clock bias).
    var earthCentered: EarthCenteredPosition
    var velocity: EarthCenteredPosition
    /// The troposphere's zenith delays there.
    var troposphere: SaastamoinenModel.Site

    init(
      gpsSeconds: Double, clockBiasSeconds: Double, position: GeodeticPosition,
      velocity: EarthCenteredPosition, troposphere: SaastamoinenModel
    ) {
      self.troposphere = troposphere.site(
        latitude: position.latitude, heightMeters: position.altitudeMeters)
      self.gpsSeconds = gpsSeconds
      gpsSecondsOfWeek = gpsSeconds.truncatingRemainder(dividingBy: GPSSignal.secondsPerWeek)
      self.clockBiasSeconds = clockBiasSeconds
      frame = LocalTangentFrame(at: position)
      geodetic = position
      let origin = frame.origin
      earthCentered = EarthCenteredPosition(
        x: origin.x - velocity.x * clockBiasSeconds, y: origin.y - velocity.y * clockBiasSeconds,
        z: origin.z - velocity.z * clockBiasSeconds)
      self.velocity = velocity
    }
  }
}
