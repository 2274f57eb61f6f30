/// The motion written over a receiver's own while an override holds it: standing still
/// (`replace`, `freeze`) or a route's.
struct OverriddenMotion: Sendable {
  /// Speed over ground, meters per second.
  var speedMetersPerSecond: Double
  /// Course over ground, degrees true; nil keeps the receiver's.
  var courseDegrees: Double?
  /// Vertical speed, meters per second, positive up.
  var climbMetersPerSecond: Double

  /// Standing still, course as the receiver says.
  static let standingStill = OverriddenMotion(
    speedMetersPerSecond: 0, courseDegrees: nil, climbMetersPerSecond: 0)

  /// Speed in knots.
  var speedKnots: Double { speedMetersPerSecond * 3600 / 1852 }
  /// Speed in km/h.
  var speedKilometersPerHour: Double { speedMetersPerSecond * 3.6 }
}
