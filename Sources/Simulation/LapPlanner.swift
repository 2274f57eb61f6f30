/// Plans the laps of one polyline under one set of limits.
struct LapPlanner {
  let polyline: GeodesicPolyline
  let limits: DrivingLimits

  /// A lap with these joints, from `startSpeed` (at most) to `endSpeed` (at most).
  func lap(
    entry: TurnZones.Joint?, exit: TurnZones.Joint?, startSpeed: Double, endSpeed: Double
  ) -> RouteDriving.Lap {
    let zones = zones(entry: entry, exit: exit)
    let (boundaries, speedLimits) = zones.speedLimits(
      along: polyline, cruise: limits.speedMetersPerSecond)
    let profile = SpeedProfile(
      boundaries: boundaries, limits: speedLimits, startSpeed: startSpeed, endSpeed: endSpeed,
      acceleration: limits.accelerationMetersPerSecondSquared)
    return RouteDriving.Lap(zones: zones, profile: profile)
  }

  /// A lap of a closed polyline that starts and ends at the same speed, the fastest such up to
  /// `highestJointSpeed`.
  ///
  /// The speed at the joint starts at the cruise speed and is lowered until the passes of
  /// `SpeedProfile.knotSpeeds` leave it unchanged at both ends (a few rounds at most).
  func periodicLap(
    entry: TurnZones.Joint, exit: TurnZones.Joint, highestJointSpeed: Double = .infinity
  ) -> RouteDriving.Lap {
    let zones = zones(entry: entry, exit: exit)
    let (boundaries, speedLimits) = zones.speedLimits(
      along: polyline, cruise: limits.speedMetersPerSecond)
    var jointSpeed = min(limits.speedMetersPerSecond, highestJointSpeed)
    for _ in 0..<20 {
      let knots = SpeedProfile.knotSpeeds(
        boundaries: boundaries, limits: speedLimits, startSpeed: jointSpeed,
        endSpeed: jointSpeed, acceleration: limits.accelerationMetersPerSecondSquared)
      let settled = min(knots[0], knots[knots.count - 1])
      if settled >= jointSpeed - 1e-9 { break }
      jointSpeed = settled
    }
    return lap(entry: entry, exit: exit, startSpeed: jointSpeed, endSpeed: jointSpeed)
  }

  private func zones(entry: TurnZones.Joint?, exit: TurnZones.Joint?) -> TurnZones {
    TurnZones(
      polyline: polyline, turnRateDegreesPerSecond: limits.turnRateDegreesPerSecond,
      halfLength: RouteDriving.turnZoneHalfLengthMeters, entry: entry, exit: exit)
  }
}
