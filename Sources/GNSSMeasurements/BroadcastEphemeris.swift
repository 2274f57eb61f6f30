import Geodesy
import Simulation

/// A GPS LNAV broadcast ephemeris and clock (IS-GPS-200, 20.3.3.3 and 20.3.3.4), its values
/// already rounded to what subframes 1–3 can carry, so that the subframes encode it exactly and
/// a receiver decoding them computes the same positions and clock as `position(atGPSSeconds:)`
/// and `clockOffsetSeconds(atGPSSeconds:)`.
///
/// It is derived from the orbit the simulated sky uses, its elements referred to `toe`: a Kepler
/// ellipse with a drifting node, so the harmonic corrections, Δn, IDOT and af2 are zero. The
/// satellite position differs from the sky's only by that rounding (a few centimeters).
public struct BroadcastEphemeris: Hashable, Sendable {
  /// The PRN.
  public var prn: Int
  /// The full GPS week of `toe`.
  public var week: Int
  /// Time of ephemeris and of clock, seconds of `week` (a multiple of 16).
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
  /// af0, seconds.
  public var clockBiasSeconds: Double
  /// af1, s/s.
  public var clockDriftSecondsPerSecond: Double

  /// The ephemeris of `satellite` for the reference time `toe` (seconds since the GPS epoch, a
  /// multiple of 16), with the clock polynomial `clockBiasSeconds` + `clockDrift` × (t − toe).
  public init(
    satellite: OrbitingSatellite, referenceGPSSeconds toe: Double, clockBiasSeconds: Double,
    clockDriftSecondsPerSecond: Double
  ) {
    let orbit = satellite.orbit.referenced(toGPSSeconds: toe)
    prn = satellite.id
    week = orbit.referenceWeek
    referenceSecondsOfWeek = orbit.referenceSecondsOfWeek
    issueOfData = Int(toe / 7200) % 256
    squareRootOfSemiMajorAxis = LNAVScale.squareRootOfSemiMajorAxis.rounded(
      orbit.semiMajorAxisMeters.squareRoot())
    eccentricity = LNAVScale.eccentricity.rounded(orbit.eccentricity)
    inclinationRadians = LNAVScale.semicircles31.roundedRadians(orbit.inclinationRadians)
    rightAscensionRadians = LNAVScale.semicircles31.roundedRadians(
      orbit.rightAscensionAtWeekRadians)
    rateOfRightAscensionRadiansPerSecond = LNAVScale.semicircles43.roundedRadians(
      orbit.rateOfRightAscensionRadiansPerSecond)
    argumentOfPerigeeRadians = LNAVScale.semicircles31.roundedRadians(
      orbit.argumentOfPerigeeRadians)
    meanAnomalyRadians = LNAVScale.semicircles31.roundedRadians(orbit.meanAnomalyRadians)
    self.clockBiasSeconds = LNAVScale.clockBias.rounded(clockBiasSeconds)
    self.clockDriftSecondsPerSecond = LNAVScale.clockDrift.rounded(clockDriftSecondsPerSecond)
  }

  /// Seconds from `toe` to `gpsSeconds` (seconds since the GPS epoch).
  public func secondsFromReference(_ gpsSeconds: Double) -> Double {
    gpsSeconds - Double(week) * GPSSignal.secondsPerWeek - referenceSecondsOfWeek
  }

  /// The eccentric anomaly at `gpsSeconds` (IS-GPS-200 Table 20-IV).
  func eccentricAnomaly(atGPSSeconds gpsSeconds: Double) -> Double {
    let a = squareRootOfSemiMajorAxis * squareRootOfSemiMajorAxis
    let meanMotion = (GPSSignal.gravitationalConstant / (a * a * a)).squareRoot()
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
  /// Table 20-IV.
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
    let node =
      rightAscensionRadians
      + (rateOfRightAscensionRadiansPerSecond - GPSSignal.earthRotationRate) * tk
      - GPSSignal.earthRotationRate * referenceSecondsOfWeek
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
      GPSSignal.relativisticConstant * eccentricity * squareRootOfSemiMajorAxis
      * MeasurementMath.sine(eccentricAnomaly(atGPSSeconds: gpsSeconds))
    return clockBiasSeconds + clockDriftSecondsPerSecond * tk + relativistic
  }
}
