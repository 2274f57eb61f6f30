/// The same orbit with its elements referred to another time: what a broadcast ephemeris does
/// when it gives the elements of the orbit at its own reference time (toe).
extension KeplerianOrbit {
  /// This orbit with its mean anomaly and node given at `gpsSeconds` (seconds since the GPS
  /// epoch), in the full GPS week of that time. Both orbits give the same positions at every
  /// time (to rounding).
  public func referenced(toGPSSeconds gpsSeconds: Double) -> KeplerianOrbit {
    let timeFromReference = secondsFromReference(gpsSeconds)
    let newWeek = Int((gpsSeconds / Self.secondsPerWeek).rounded(.down))
    let newSecondsOfWeek = gpsSeconds - Double(newWeek) * Self.secondsPerWeek
    // The node's longitude at the new reference time, then Ω₀ so that the broadcast formula
    // gives it there.
    let node = nodeLongitudeRadians(secondsFromReference: timeFromReference)
    return KeplerianOrbit(
      semiMajorAxisMeters: semiMajorAxisMeters, eccentricity: eccentricity,
      inclinationRadians: inclinationRadians,
      rightAscensionAtWeekRadians: Self.normalizedAngle(
        node + Self.earthRotationRate * newSecondsOfWeek),
      rateOfRightAscensionRadiansPerSecond: rateOfRightAscensionRadiansPerSecond,
      argumentOfPerigeeRadians: argumentOfPerigeeRadians,
      meanAnomalyRadians: Self.normalizedAngle(
        meanAnomalyRadians + meanMotionRadiansPerSecond * timeFromReference),
      referenceSecondsOfWeek: newSecondsOfWeek, referenceWeek: newWeek)
  }

  /// An angle brought into [−π, π).
  static func normalizedAngle(_ radians: Double) -> Double {
    let turns = (radians / (2 * .pi) + 0.5).rounded(.down)
    return radians - turns * 2 * .pi
  }
}
