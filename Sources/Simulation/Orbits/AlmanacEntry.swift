/// One satellite's almanac: the Keplerian elements a GPS receiver keeps for every satellite to
/// know where to look (IS-GPS-200, 20.3.3.5.1.2 and Table 20-VI), in SI units.
///
/// YUMA files give these values directly (the inclination in full, angles in radians); SEM
/// files give some in semicircles and the inclination as an offset from 0.30 semicircles, which
/// their reader converts. Both give the week modulo 1024.
public struct AlmanacEntry: Hashable, Sendable {
  /// The system the satellite belongs to; almanac files are GPS only.
  public var constellation: Constellation
  /// The PRN (GPS 1–32).
  public var prn: Int
  /// The six health bits as broadcast (YUMA `Health`, SEM `SV health`); 0 is healthy.
  public var health: Int
  /// Orbit eccentricity, dimensionless.
  public var eccentricity: Double
  /// Time of applicability, seconds into `week`.
  public var timeOfApplicabilitySeconds: Double
  /// The GPS week of `timeOfApplicabilitySeconds` as the file gives it: modulo 1024 for YUMA and
  /// SEM. Whoever propagates the orbit resolves it to the full week nearest the time wanted.
  public var week: Int
  /// Orbital inclination, radians (in full, not the offset from 0.3 semicircles).
  public var inclinationRadians: Double
  /// Rate of right ascension, radians per second.
  public var rateOfRightAscensionRadiansPerSecond: Double
  /// Square root of the semi-major axis, √m.
  public var squareRootOfSemiMajorAxis: Double
  /// Longitude of the ascending node at the week's start (Ω₀), radians.
  public var rightAscensionAtWeekRadians: Double
  /// Argument of perigee (ω), radians.
  public var argumentOfPerigeeRadians: Double
  /// Mean anomaly at the time of applicability (M₀), radians.
  public var meanAnomalyRadians: Double
  /// Clock bias (af0), seconds.
  public var clockBiasSeconds: Double
  /// Clock drift (af1), seconds per second.
  public var clockDriftSecondsPerSecond: Double

  /// Creates an entry from values in SI units.
  public init(
    constellation: Constellation = .gps, prn: Int, health: Int, eccentricity: Double,
    timeOfApplicabilitySeconds: Double, week: Int, inclinationRadians: Double,
    rateOfRightAscensionRadiansPerSecond: Double, squareRootOfSemiMajorAxis: Double,
    rightAscensionAtWeekRadians: Double, argumentOfPerigeeRadians: Double,
    meanAnomalyRadians: Double, clockBiasSeconds: Double = 0,
    clockDriftSecondsPerSecond: Double = 0
  ) {
    self.constellation = constellation
    self.prn = prn
    self.health = health
    self.eccentricity = eccentricity
    self.timeOfApplicabilitySeconds = timeOfApplicabilitySeconds
    self.week = week
    self.inclinationRadians = inclinationRadians
    self.rateOfRightAscensionRadiansPerSecond = rateOfRightAscensionRadiansPerSecond
    self.squareRootOfSemiMajorAxis = squareRootOfSemiMajorAxis
    self.rightAscensionAtWeekRadians = rightAscensionAtWeekRadians
    self.argumentOfPerigeeRadians = argumentOfPerigeeRadians
    self.meanAnomalyRadians = meanAnomalyRadians
    self.clockBiasSeconds = clockBiasSeconds
    self.clockDriftSecondsPerSecond = clockDriftSecondsPerSecond
  }

  /// True when the health bits are all zero: the satellite may be used in a fix.
  public var isHealthy: Bool { health == 0 }
}
