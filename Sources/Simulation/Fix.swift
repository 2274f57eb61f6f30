import Geodesy

/// The receiver's solution at one epoch: everything the sentences of that epoch report.
public struct Fix: Hashable, Sendable {
  /// How good the solution is.
  public enum Mode: Int, Hashable, Sendable {
    case noFix = 1
    case twoDimensional = 2
    case threeDimensional = 3
  }

  /// Corrections the solution uses beyond the satellites' own signals: GGA's quality, the mode
  /// indicator of RMC, GLL and VTG.
  public enum Correction: Int, Hashable, Sendable {
    case none
    /// Differential corrections (DGPS, SBAS): GGA quality 2, mode D.
    case differential
    /// Real-time kinematic with float ambiguities: GGA quality 5, mode F.
    case rtkFloat
    /// Real-time kinematic with fixed ambiguities: GGA quality 4, mode R.
    case rtkFixed
  }

  /// The epoch's time: the scheduled epoch, not when it was computed.
  public var time: UTCInstant
  public var mode: Mode
  public var position: GeodeticPosition
  /// Height of the geoid above the WGS-84 ellipsoid, meters.
  public var geoidSeparationMeters: Double
  public var speedMetersPerSecond: Double
  /// Course over ground, degrees true.
  public var courseDegrees: Double
  /// Vertical speed, meters per second, positive up.
  public var climbMetersPerSecond: Double
  /// Corrections used; only meaningful with a fix.
  public var correction: Correction
  /// Satellites in view, used ones first.
  public var satellites: [SatelliteInView]
  /// DOPs from the geometry of the satellites used; nil without a fix.
  public var dop: DilutionOfPrecision?

  /// Creates a fix.
  public init(
    time: UTCInstant, mode: Mode, position: GeodeticPosition, geoidSeparationMeters: Double,
    speedMetersPerSecond: Double, courseDegrees: Double, satellites: [SatelliteInView],
    dop: DilutionOfPrecision?, climbMetersPerSecond: Double = 0, correction: Correction = .none
  ) {
    self.time = time
    self.mode = mode
    self.position = position
    self.geoidSeparationMeters = geoidSeparationMeters
    self.speedMetersPerSecond = speedMetersPerSecond
    self.courseDegrees = courseDegrees
    self.satellites = satellites
    self.dop = dop
    self.climbMetersPerSecond = climbMetersPerSecond
    self.correction = correction
  }

  /// The satellites used in the solution.
  public var satellitesUsed: [SatelliteInView] { satellites.filter(\.isUsed) }
}

extension Fix.Mode: Comparable {
  /// The best mode `count` used satellites allow: 3D with four or more, 2D with three, none below.
  public init(satellitesUsedCount count: Int) {
    self = count >= 4 ? .threeDimensional : count == 3 ? .twoDimensional : .noFix
  }

  /// Worse modes are smaller: no fix < 2D < 3D.
  public static func < (lhs: Fix.Mode, rhs: Fix.Mode) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
