/// How a vehicle drives an untimed route or a scripted leg.
public struct DrivingLimits: Hashable, Sendable {
  /// The cruising speed, meters per second.
  public var speedMetersPerSecond: Double
  /// The largest acceleration and deceleration, meters per second squared.
  public var accelerationMetersPerSecondSquared: Double
  /// The fastest change of course, degrees per second.
  public var turnRateDegreesPerSecond: Double

  /// Creates limits.
  public init(
    speedMetersPerSecond: Double, accelerationMetersPerSecondSquared: Double,
    turnRateDegreesPerSecond: Double
  ) {
    self.speedMetersPerSecond = speedMetersPerSecond
    self.accelerationMetersPerSecondSquared = accelerationMetersPerSecondSquared
    self.turnRateDegreesPerSecond = turnRateDegreesPerSecond
  }

  /// A car in town: 13.9 m/s (50 km/h), 2 m/s² (0 to 50 km/h in 7 s, a calm driver), and
  /// 30°/s, which with the 10 m turn zones of `RouteDriving` takes a right-angle corner at
  /// about 6.7 m/s (24 km/h) and a hairpin at walking pace.
  public static let car = DrivingLimits(
    speedMetersPerSecond: 13.9, accelerationMetersPerSecondSquared: 2,
    turnRateDegreesPerSecond: 30)

  /// True when every limit is a finite number above zero, so a vehicle can move at all.
  public var isDrivable: Bool {
    [speedMetersPerSecond, accelerationMetersPerSecondSquared, turnRateDegreesPerSecond]
      .allSatisfy { $0.isFinite && $0 > 0 }
  }

  /// The same limits with another cruising speed.
  public func cruising(at speedMetersPerSecond: Double) -> DrivingLimits {
    var limits = self
    limits.speedMetersPerSecond = speedMetersPerSecond
    return limits
  }
}
