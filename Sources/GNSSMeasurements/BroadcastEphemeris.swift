import Geodesy
import Simulation

/// A broadcast ephemeris and clock of GPS (LNAV, IS-GPS-200 20.3.3.3 and 20.3.3.4), Galileo
/// (I/NAV) or BeiDou (D1), its values already rounded to what the navigation message can carry,
/// so that the message encodes it exactly and a receiver decoding it computes the same
/// positions and clock as `position(atGPSSeconds:)` and `clockOffsetSeconds(atGPSSeconds:)`
/// with its system's constants (`BroadcastConventions`).
///
/// It is derived from the orbit the simulated sky uses, its elements referred to `toe`: a Kepler
/// ellipse with a drifting node, so the harmonic corrections, IDOT and af2 are zero; Δn makes
/// the mean motion of the rounded √A under the system's μ that of the sky's orbit, and Ω₀ and
/// Ω̇ are those of the system's ωₑ. The satellite position differs from the sky's only by the
/// rounding (a few centimeters).
public struct BroadcastEphemeris: Hashable, Sendable {
  /// The satellite's system.
  public var constellation: Constellation
  /// The PRN.
  public var prn: Int
  /// The week of `toe` on the system's time scale, counted from GPS week 0 (the system's own
  /// week number is this minus `conventions.weekOffset`).
  public var week: Int
  /// Time of ephemeris and of clock, seconds of `week` on the system's time scale.
  public var referenceSecondsOfWeek: Double
  /// Issue of data, ephemeris (IODC carries the same value).
  public var issueOfData: Int
  /// √A, √m.
  public var squareRootOfSemiMajorAxis: Double
  /// Eccentricity.
  public var eccentricity: Double
  /// i₀, radians.
  public var inclinationRadians: Double
  /// Ω₀, radians.
  public var rightAscensionRadians: Double
  /// Ω̇, rad/s.
  public var rateOfRightAscensionRadiansPerSecond: Double
  /// ω, radians.
  public var argumentOfPerigeeRadians: Double
  /// M₀, radians.
  public var meanAnomalyRadians: Double
  /// Δn, rad/s.
  public var meanMotionCorrectionRadiansPerSecond: Double
  /// af0, seconds.
  public var clockBiasSeconds: Double
  /// af1, s/s.
  public var clockDriftSecondsPerSecond: Double

  /// The ephemeris of `satellite` (of GPS, Galileo or BeiDou) for the reference time `toe`
  /// (seconds since the GPS epoch; on the system's scale a multiple of its toe unit: 16 s for
  /// GPS, 60 s for Galileo, 8 s for BeiDou), with the clock polynomial `clockBiasSeconds` +
  /// `clockDrift` × (t − toe).
  public init(
    satellite: OrbitingSatellite, referenceGPSSeconds toe: Double, clockBiasSeconds: Double,
    clockDriftSecondsPerSecond: Double
  ) {
    let conventions = BroadcastConventions.of(satellite.constellation) ?? .gps
    let orbit = satellite.orbit.referenced(toGPSSeconds: toe)
    let systemSeconds = toe - conventions.secondsBehindGPS
    constellation = satellite.constellation
    prn = satellite.id
    week = Int((systemSeconds / GPSSignal.secondsPerWeek).rounded(.down))
    referenceSecondsOfWeek = systemSeconds - Double(week) * GPSSignal.secondsPerWeek
    issueOfData =
      Int((systemSeconds / conventions.ephemerisPeriodSeconds).rounded(.down))
      % conventions.issueModulus
    squareRootOfSemiMajorAxis = LNAVScale.squareRootOfSemiMajorAxis.rounded(
      orbit.semiMajorAxisMeters.squareRoot())
    eccentricity = LNAVScale.eccentricity.rounded(orbit.eccentricity)
    inclinationRadians = LNAVScale.semicircles31.roundedRadians(orbit.inclinationRadians)
    // The node at toe, Ω₀ − ωₑ·toe under either rotation rate, and its rate in the Earth's
    // frame, Ω̇ − ωₑ, kept.
    let node =
      orbit.rightAscensionAtWeekRadians
      - KeplerianOrbit.earthRotationRate * orbit.referenceSecondsOfWeek
    rightAscensionRadians = LNAVScale.semicircles31.roundedRadians(
      Self.normalized(node + conventions.earthRotationRate * referenceSecondsOfWeek))
    rateOfRightAscensionRadiansPerSecond = LNAVScale.semicircles43.roundedRadians(
      orbit.rateOfRightAscensionRadiansPerSecond - KeplerianOrbit.earthRotationRate
        + conventions.earthRotationRate)
    argumentOfPerigeeRadians = LNAVScale.semicircles31.roundedRadians(
      orbit.argumentOfPerigeeRadians)
    meanAnomalyRadians = LNAVScale.semicircles31.roundedRadians(orbit.meanAnomalyRadians)
    let skyAxis = orbit.semiMajorAxisMeters
    let broadcastAxis = squareRootOfSemiMajorAxis * squareRootOfSemiMajorAxis
    meanMotionCorrectionRadiansPerSecond = LNAVScale.semicircles43.roundedRadians(
      (KeplerianOrbit.gravitationalConstant / (skyAxis * skyAxis * skyAxis)).squareRoot()
        - (conventions.gravitationalConstant / (broadcastAxis * broadcastAxis * broadcastAxis))
        .squareRoot())
    self.clockBiasSeconds = LNAVScale(unit: conventions.clockBiasUnit, isAngle: false).rounded(
      clockBiasSeconds)
    self.clockDriftSecondsPerSecond = LNAVScale.clockDrift.rounded(clockDriftSecondsPerSecond)
  }

  /// The constants and time scale of the satellite's system.
  public var conventions: BroadcastConventions { BroadcastConventions.of(constellation) ?? .gps }

  /// An angle brought into [−π, π).
  static func normalized(_ radians: Double) -> Double {
    radians - ((radians / (2 * .pi) + 0.5).rounded(.down)) * 2 * .pi
  }

  /// Seconds from `toe` to `gpsSeconds` (seconds since the GPS epoch).
  public func secondsFromReference(_ gpsSeconds: Double) -> Double {
    gpsSeconds - conventions.secondsBehindGPS - Double(week) * GPSSignal.secondsPerWeek
      - referenceSecondsOfWeek
  }

  /// The eccentric anomaly at `gpsSeconds` (IS-GPS-200 Table 20-IV).
  func eccentricAnomaly(atGPSSeconds gpsSeconds: Double) -> Double {
    let a = squareRootOfSemiMajorAxis * squareRootOfSemiMajorAxis
    let meanMotion =
      (conventions.gravitationalConstant / (a * a * a)).squareRoot()
      + meanMotionCorrectionRadiansPerSecond
    let meanAnomaly = meanAnomalyRadians + meanMotion * secondsFromReference(gpsSeconds)
    var anomaly = meanAnomaly
    for _ in 0..<20 {
      let step =
        (anomaly - eccentricity * MeasurementMath.sine(anomaly) - meanAnomaly)
        / (1 - eccentricity * MeasurementMath.cosine(anomaly))
      anomaly -= step
      if abs(step) < 1e-14 { break }
    }
    return anomaly
  }

  /// The satellite's ECEF position at `gpsSeconds` by the user algorithm of IS-GPS-200
  /// Table 20-IV (the same for Galileo and BeiDou's MEO satellites, with their constants).
  public func position(atGPSSeconds gpsSeconds: Double) -> EarthCenteredPosition {
    let a = squareRootOfSemiMajorAxis * squareRootOfSemiMajorAxis
    let e = eccentricity
    let tk = secondsFromReference(gpsSeconds)
    let anomaly = eccentricAnomaly(atGPSSeconds: gpsSeconds)
    let sinE = MeasurementMath.sine(anomaly)
    let cosE = MeasurementMath.cosine(anomaly)
    let trueAnomaly = MeasurementMath.arcTangent2((1 - e * e).squareRoot() * sinE, cosE - e)
    let argumentOfLatitude = trueAnomaly + argumentOfPerigeeRadians
    let radius = a * (1 - e * cosE)
    let x = radius * MeasurementMath.cosine(argumentOfLatitude)
    let y = radius * MeasurementMath.sine(argumentOfLatitude)
    let rotation = conventions.earthRotationRate
    let node =
      rightAscensionRadians + (rateOfRightAscensionRadiansPerSecond - rotation) * tk
      - rotation * referenceSecondsOfWeek
    let cosNode = MeasurementMath.cosine(node)
    let sinNode = MeasurementMath.sine(node)
    let cosI = MeasurementMath.cosine(inclinationRadians)
    let sinI = MeasurementMath.sine(inclinationRadians)
    return EarthCenteredPosition(
      x: x * cosNode - y * cosI * sinNode, y: x * sinNode + y * cosI * cosNode, z: y * sinI)
  }

  /// The satellite clock's offset from GPS time at `gpsSeconds`, seconds: the polynomial plus
  /// the relativistic term F e √A sin E (20.3.3.3.3.1), T_GD being zero.
  public func clockOffsetSeconds(atGPSSeconds gpsSeconds: Double) -> Double {
    let tk = secondsFromReference(gpsSeconds)
    let relativistic =
      conventions.relativisticConstant * eccentricity * squareRootOfSemiMajorAxis
      * MeasurementMath.sine(eccentricAnomaly(atGPSSeconds: gpsSeconds))
    return clockBiasSeconds + clockDriftSecondsPerSecond * tk + relativistic
  }
}
