import Geodesy

/// A satellite's orbit as the IS-GPS-200 almanac describes it (Table 20-IV with the almanac
/// parameters of 20.3.3.5.1.2): a Kepler ellipse whose node drifts, in ECEF.
///
/// Almanac orbits keep their week modulo 1024 and resolve it against the time asked for;
/// nominal orbits give their full reference week.
public struct KeplerianOrbit: Hashable, Sendable {
  /// WGS-84 value of the Earth's gravitational constant used by GPS, m³/s².
  public static let gravitationalConstant = 3.986005e14
  /// WGS-84 value of the Earth's rotation rate, rad/s.
  public static let earthRotationRate = 7.2921151467e-5
  static let secondsPerWeek = 604_800.0

  /// Semi-major axis, meters.
  public var semiMajorAxisMeters: Double
  /// Eccentricity.
  public var eccentricity: Double
  /// Inclination, radians.
  public var inclinationRadians: Double {
    didSet { (inclinationSine, inclinationCosine) = Self.sineAndCosine(inclinationRadians) }
  }
  /// The inclination's sine and cosine, which every position takes: worked out when it is set.
  private(set) var inclinationSine: Double
  private(set) var inclinationCosine: Double
  /// Longitude of the ascending node at the start of the reference week (Ω₀), radians.
  public var rightAscensionAtWeekRadians: Double
  /// Rate of right ascension (Ω̇), rad/s.
  public var rateOfRightAscensionRadiansPerSecond: Double
  /// Argument of perigee (ω), radians.
  public var argumentOfPerigeeRadians: Double
  /// Mean anomaly at the reference time (M₀), radians.
  public var meanAnomalyRadians: Double
  /// Seconds into the reference week of the reference time (toa).
  public var referenceSecondsOfWeek: Double
  /// The reference week: in full, or modulo `weekModulus`.
  public var referenceWeek: Int
  /// 1024 for almanac weeks, nil when `referenceWeek` is in full.
  public var weekModulus: Int?

  /// Creates an orbit from its elements.
  public init(
    semiMajorAxisMeters: Double, eccentricity: Double, inclinationRadians: Double,
    rightAscensionAtWeekRadians: Double, rateOfRightAscensionRadiansPerSecond: Double,
    argumentOfPerigeeRadians: Double, meanAnomalyRadians: Double,
    referenceSecondsOfWeek: Double, referenceWeek: Int, weekModulus: Int? = nil
  ) {
    self.semiMajorAxisMeters = semiMajorAxisMeters
    self.eccentricity = eccentricity
    self.inclinationRadians = inclinationRadians
    (inclinationSine, inclinationCosine) = Self.sineAndCosine(inclinationRadians)
    self.rightAscensionAtWeekRadians = rightAscensionAtWeekRadians
    self.rateOfRightAscensionRadiansPerSecond = rateOfRightAscensionRadiansPerSecond
    self.argumentOfPerigeeRadians = argumentOfPerigeeRadians
    self.meanAnomalyRadians = meanAnomalyRadians
    self.referenceSecondsOfWeek = referenceSecondsOfWeek
    self.referenceWeek = referenceWeek
    self.weekModulus = weekModulus
  }

  /// The orbit of an almanac entry (its week modulo 1024).
  public init(almanac entry: AlmanacEntry) {
    self.init(
      semiMajorAxisMeters: entry.squareRootOfSemiMajorAxis * entry.squareRootOfSemiMajorAxis,
      eccentricity: entry.eccentricity, inclinationRadians: entry.inclinationRadians,
      rightAscensionAtWeekRadians: entry.rightAscensionAtWeekRadians,
      rateOfRightAscensionRadiansPerSecond: entry.rateOfRightAscensionRadiansPerSecond,
      argumentOfPerigeeRadians: entry.argumentOfPerigeeRadians,
      meanAnomalyRadians: entry.meanAnomalyRadians,
      referenceSecondsOfWeek: entry.timeOfApplicabilitySeconds, referenceWeek: entry.week,
      weekModulus: 1024)
  }

  /// The full reference week nearest `gpsSeconds` (seconds since the GPS epoch).
  func resolvedReferenceWeek(near gpsSeconds: Double) -> Int {
    guard let modulus = weekModulus else { return referenceWeek }
    let weeksAfterReference =
      (gpsSeconds - referenceSecondsOfWeek) / Self.secondsPerWeek - Double(referenceWeek)
    return referenceWeek + modulus * Int(orbitRounded(weeksAfterReference / Double(modulus)))
  }

  /// Seconds from the reference time, in the full week nearest `gpsSeconds`, to `gpsSeconds`.
  func secondsFromReference(_ gpsSeconds: Double) -> Double {
    let week = resolvedReferenceWeek(near: gpsSeconds)
    return gpsSeconds - Double(week) * Self.secondsPerWeek - referenceSecondsOfWeek
  }

  static func sineAndCosine(_ radians: Double) -> (Double, Double) {
    (orbitSine(radians), orbitCosine(radians))
  }

  /// The mean motion, rad/s.
  var meanMotionRadiansPerSecond: Double {
    let a = semiMajorAxisMeters
    return (Self.gravitationalConstant / (a * a * a)).squareRoot()
  }

  /// The longitude of the ascending node from Greenwich `seconds` after the reference time
  /// (IS-GPS-200's Ω = Ω₀ + (Ω̇ − ωₑ) tₖ − ωₑ tₒₑ).
  func nodeLongitudeRadians(secondsFromReference seconds: Double) -> Double {
    rightAscensionAtWeekRadians
      + (rateOfRightAscensionRadiansPerSecond - Self.earthRotationRate) * seconds
      - Self.earthRotationRate * referenceSecondsOfWeek
  }

  /// The satellite's ECEF position at `gpsSeconds` seconds since the GPS epoch.
  public func position(atGPSSeconds gpsSeconds: Double) -> EarthCenteredPosition {
    positionAndVelocity(atGPSSeconds: gpsSeconds).position
  }

  /// The eccentric anomaly E with M = E − e sin E, by Newton's method.
  static func solveKepler(meanAnomaly: Double, eccentricity e: Double) -> Double {
    var eccentricAnomaly = meanAnomaly
    guard e != 0 else { return eccentricAnomaly }
    for _ in 0..<20 {
      let step =
        (eccentricAnomaly - e * orbitSine(eccentricAnomaly) - meanAnomaly)
        / (1 - e * orbitCosine(eccentricAnomaly))
      eccentricAnomaly -= step
      if abs(step) < 1e-13 { break }
    }
    return eccentricAnomaly
  }
}
