import Geodesy
import Simulation

/// A GLONASS broadcast ephemeris (GLONASS ICD 5.1, 4.4: strings 1–4): the satellite's position,
/// velocity and lunisolar acceleration in PZ-90 at the reference time tb, and its clock, each
/// rounded to what the strings carry, so that a receiver integrating it as the ICD's appendix
/// A.3.1.2 says computes the same positions as `motion(atGPSSeconds:)`.
///
/// The state at tb is the simulated sky's orbit there (PZ-90.11 is taken as the sky's ECEF
/// frame, to which it is within centimetres); the lunisolar acceleration is zero, the sky
/// having no Sun or Moon. Unlike GPS's Kepler elements, this state vector is propagated with
/// the Earth's oblateness (J2), which the sky's orbit leaves out: the ephemeris is the truth
/// of the measurements (`MeasurementEngine`), and the sky's orbit, off by up to a few tens of
/// metres a quarter of an hour from tb, only places the satellite on the sky.
public struct GLONASSEphemeris: Hashable, Sendable {
  /// The orbital slot, 1–24.
  public var slot: Int
  /// The frequency channel, −7…6.
  public var frequencyChannel: Int
  /// tb, seconds since the GPS epoch.
  public var referenceGPSSeconds: Double
  /// GPS − UTC at tb, seconds: GLONASS time is UTC(SU) + 3 h.
  public var leapSeconds: Int
  /// Position at tb, PZ-90, metres (multiples of 2⁻¹¹ km).
  public var position: EarthCenteredPosition
  /// Velocity at tb in the Earth-fixed frame, m/s (multiples of 2⁻²⁰ km/s).
  public var velocity: EarthCenteredPosition
  /// Lunisolar acceleration, m/s² (multiples of 2⁻³⁰ km/s²).
  public var acceleration: EarthCenteredPosition
  /// τn: the satellite clock's offset from GLONASS time, seconds (multiples of 2⁻³⁰ s); the
  /// satellite's time is GLONASS time minus τn.
  public var clockBiasSeconds: Double
  /// γn: the carrier frequency's relative deviation (multiples of 2⁻⁴⁰).
  public var relativeFrequencyBias: Double

  /// The PZ-90 constants of the ICD (3.1.3): μ, the equatorial radius, J2⁰ and ωₑ.
  public static let gravitationalConstant = 398_600.4418e9
  public static let equatorialRadiusMeters = 6_378_136.0
  public static let secondZonalHarmonic = 1_082.62575e-6
  public static let earthRotationRate = 7.292115e-5
  /// Seconds between two ephemerides' tb: a new one every half hour, tb in its middle.
  public static let periodSeconds = 1800.0
  /// The integration step, seconds (the ICD's appendix suggests steps of up to a few minutes;
  /// RTKLIB takes 60 s).
  static let stepSeconds = 60.0

  /// The ephemeris of `satellite` (a GLONASS one) whose reference time is `tb` (seconds since
  /// the GPS epoch), when GPS − UTC is `leapSeconds`, with the clock offset `clockBiasSeconds`.
  public init(
    satellite: OrbitingSatellite, referenceGPSSeconds tb: Double, leapSeconds: Int,
    clockBiasSeconds: Double
  ) {
    slot = satellite.id
    frequencyChannel = GLONASSChannels.channel(ofSlot: satellite.id) ?? 0
    referenceGPSSeconds = tb
    self.leapSeconds = leapSeconds
    let state = satellite.orbit.positionAndVelocity(atGPSSeconds: tb)
    let positionUnit = 0x1p-11 * 1000
    let velocityUnit = 0x1p-20 * 1000
    position = Self.rounded(state.position, unit: positionUnit)
    velocity = Self.rounded(state.velocity, unit: velocityUnit)
    acceleration = EarthCenteredPosition(x: 0, y: 0, z: 0)
    self.clockBiasSeconds = LNAVScale(unit: 0x1p-30, isAngle: false).rounded(clockBiasSeconds)
    relativeFrequencyBias = 0
  }

  /// The tb (seconds since the GPS epoch) of the ephemeris in force at `gpsSeconds`: the middle
  /// of the half hour of Moscow time it falls in, as the satellites broadcast each from a quarter
  /// of an hour before its tb to a quarter after.
  public static func referenceGPSSeconds(near gpsSeconds: Double, leapSeconds: Int) -> Double {
    let moscow = GLONASSTime.moscowSeconds(atGPSSeconds: gpsSeconds, leapSeconds: leapSeconds)
    return GLONASSTime.gpsSeconds(
      atMoscowSeconds: ((moscow / periodSeconds).rounded(.down) + 0.5) * periodSeconds,
      leapSeconds: leapSeconds)
  }

  /// tb's seconds into the Moscow day.
  public var referenceSecondsOfMoscowDay: Double {
    let moscow = GLONASSTime.moscowSeconds(
      atGPSSeconds: referenceGPSSeconds, leapSeconds: leapSeconds)
    return moscow - (moscow / 86_400).rounded(.down) * 86_400
  }

  /// The satellite's position and velocity in PZ-90 at `gpsSeconds`: the state at tb
  /// integrated with the fourth-order Runge-Kutta method in steps of `stepSeconds`, the last
  /// step shorter, under the ICD's equations of motion in the Earth-fixed frame (central
  /// gravity, J2, the centrifugal and Coriolis terms, the lunisolar acceleration). An ephemeris
  /// serves a quarter of an hour either side of tb; a time more than `longestReachSeconds` away
  /// (or not finite) is taken at that limit, so that the work stays bounded.
  public func motion(atGPSSeconds gpsSeconds: Double) -> (
    position: EarthCenteredPosition, velocity: EarthCenteredPosition
  ) {
    var state = State(position: position, velocity: velocity)
    let steps = self.steps(to: gpsSeconds)
    let step = steps.whole < 0 ? -Self.stepSeconds : Self.stepSeconds
    for _ in 0..<abs(steps.whole) {
      state = state.advanced(by: step, acceleration: acceleration)
    }
    return state.finished(by: steps.partialSeconds, acceleration: acceleration)
  }

  /// How integrating from tb reaches `gpsSeconds`: whole steps of `stepSeconds` (negative
  /// ones backward), then a shorter one; a time more than `longestReachSeconds` from tb (or not
  /// finite) is taken at that limit.
  func steps(to gpsSeconds: Double) -> (whole: Int, partialSeconds: Double) {
    let offset = gpsSeconds - referenceGPSSeconds
    let reach = offset.isFinite ? min(abs(offset), Self.longestReachSeconds) : 0
    let whole = Int((reach / Self.stepSeconds).rounded(.down))
    let partial = reach - Double(whole) * Self.stepSeconds
    return offset < 0 ? (-whole, -partial) : (whole, partial)
  }

  /// The farthest from tb `motion(atGPSSeconds:)` integrates: a day.
  static let longestReachSeconds = 86_400.0

  /// The satellite clock's offset from GLONASS time at `gpsSeconds`: −τn + γn (t − tb), as a
  /// receiver subtracts it (the pseudorange counts from the satellite's time).
  public func clockOffsetSeconds(atGPSSeconds gpsSeconds: Double) -> Double {
    -clockBiasSeconds + relativeFrequencyBias * (gpsSeconds - referenceGPSSeconds)
  }

  /// A vector's components rounded to multiples of `unit`.
  static func rounded(_ vector: EarthCenteredPosition, unit: Double) -> EarthCenteredPosition {
    EarthCenteredPosition(
      x: (vector.x / unit).rounded() * unit, y: (vector.y / unit).rounded() * unit,
      z: (vector.z / unit).rounded() * unit)
  }
}

extension GLONASSEphemeris {
  /// Position and velocity, integrated together.
  struct State {
    var position: EarthCenteredPosition
    var velocity: EarthCenteredPosition

    /// The state `step` seconds on (fourth-order Runge-Kutta).
    func advanced(by step: Double, acceleration: EarthCenteredPosition) -> State {
      let k1 = derivative(acceleration)
      let k2 = moved(by: k1, step / 2).derivative(acceleration)
      let k3 = moved(by: k2, step / 2).derivative(acceleration)
      let k4 = moved(by: k3, step).derivative(acceleration)
      func combined(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        (a + 2 * b + 2 * c + d) * step / 6
      }
      return State(
        position: EarthCenteredPosition(
          x: position.x + combined(k1.position.x, k2.position.x, k3.position.x, k4.position.x),
          y: position.y + combined(k1.position.y, k2.position.y, k3.position.y, k4.position.y),
          z: position.z + combined(k1.position.z, k2.position.z, k3.position.z, k4.position.z)),
        velocity: EarthCenteredPosition(
          x: velocity.x + combined(k1.velocity.x, k2.velocity.x, k3.velocity.x, k4.velocity.x),
          y: velocity.y + combined(k1.velocity.y, k2.velocity.y, k3.velocity.y, k4.velocity.y),
          z: velocity.z + combined(k1.velocity.z, k2.velocity.z, k3.velocity.z, k4.velocity.z)))
    }

    /// The position and velocity after a last step of `seconds` (none when under a nanosecond).
    func finished(by seconds: Double, acceleration: EarthCenteredPosition) -> (
      position: EarthCenteredPosition, velocity: EarthCenteredPosition
    ) {
      let state = abs(seconds) > 1e-9 ? advanced(by: seconds, acceleration: acceleration) : self
      return (state.position, state.velocity)
    }

    /// This state moved along `rate` for `seconds`.
    func moved(by rate: State, _ seconds: Double) -> State {
      State(
        position: EarthCenteredPosition(
          x: position.x + rate.position.x * seconds, y: position.y + rate.position.y * seconds,
          z: position.z + rate.position.z * seconds),
        velocity: EarthCenteredPosition(
          x: velocity.x + rate.velocity.x * seconds, y: velocity.y + rate.velocity.y * seconds,
          z: velocity.z + rate.velocity.z * seconds))
    }

    /// The time derivative: the velocity, and the acceleration in the rotating frame (ICD
    /// A.3.1.2).
    func derivative(_ lunisolar: EarthCenteredPosition) -> State {
      let (x, y, z) = (position.x, position.y, position.z)
      let r2 = x * x + y * y + z * z
      let r = r2.squareRoot()
      let mu = GLONASSEphemeris.gravitationalConstant
      let rotation = GLONASSEphemeris.earthRotationRate
      let radius = GLONASSEphemeris.equatorialRadiusMeters
      let central = -mu / (r2 * r)
      // The J2 term: −(3/2) J2 μ aₑ² / r⁵ times (1 − 5 z²/r²) for x and y, (3 − 5 z²/r²) for z.
      let oblateness =
        -1.5 * GLONASSEphemeris.secondZonalHarmonic * mu * radius * radius / (r2 * r2 * r)
      let polar = 5 * z * z / r2
      return State(
        position: velocity,
        velocity: EarthCenteredPosition(
          x: (central + oblateness * (1 - polar) + rotation * rotation) * x + 2 * rotation
            * velocity.y + lunisolar.x,
          y: (central + oblateness * (1 - polar) + rotation * rotation) * y - 2 * rotation
            * velocity.x + lunisolar.y,
          z: (central + oblateness * (3 - polar)) * z + lunisolar.z))
    }
  }
}
