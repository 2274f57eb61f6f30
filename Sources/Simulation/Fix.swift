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
  /// The corrections from a reference station the solution used, when it used some (a rover
  /// fed RTCM 3): their age, their station, how close they bring the solution and where the
  /// rover is from the station. A scenario's `correction` alone has none.
  public var corrections: CorrectionUse?
  /// The rover's antenna from a moving base on the same vehicle (u-blox moving base mode: a
  /// base sending RTCM 4072.0 and MSM): the vector's carrier solution, age and station. The
  /// position itself stays standalone, so `correction` and `corrections` do not change.
  public var movingBaseline: MovingBaseline?
  /// Where the antenna truly is, without the faults of the solution (noise, jumps), ECEF; set
  /// for a moving base, whose RTCM 4072.0 sends it: a moving baseline comes from carrier
  /// phases, which those faults do not move. Nil otherwise.
  public var faultFreeAntenna: EarthCenteredPosition?
  /// What a receiver configured as a reference station reports at this epoch (survey-in,
  /// time mode); nil for a rover.
  public var base: BaseStationReport?
  /// Satellites in view, used ones first.
  public var satellites: [SatelliteInView]
  /// DOPs from the geometry of the satellites used; nil without a fix.
  public var dop: DilutionOfPrecision?
  /// When the receiver began tracking its satellites again after a fault cut every signal (a
  /// loss of all satellites, or a cold start), on its own clock as it was then (with the clock
  /// offset faults of that moment, as `time` has those of its own); nil when none did. The
  /// carriers it tracks were locked no earlier, each with a new whole number of cycles: a cycle
  /// slip.
  public var signalsReacquired: UTCInstant?

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

  /// The position with its altitude above the ellipsoid (the geoid's separation added), as
  /// geometry takes it.
  public var ellipsoidalPosition: GeodeticPosition {
    GeodeticPosition(
      known: position.latitude, position.longitude,
      altitudeMeters: position.altitudeMeters + geoidSeparationMeters)
  }

  /// The satellites used in the solution.
  public var satellitesUsed: [SatelliteInView] { satellites.filter(\.isUsed) }
}

/// What a rover made of a reference station's corrections at one epoch.
public struct CorrectionUse: Hashable, Sendable {
  /// Seconds since the observations the solution used arrived.
  public var ageSeconds: Double
  /// The reference station's ID (RTCM DF003, 0–4095).
  public var stationID: Int
  /// The one-sigma range error of the corrected solution, meters: its accuracy estimates are
  /// the DOPs times it, as a standalone solution's are the DOPs times the chip's range error.
  public var rangeErrorMeters: Double
  /// The rover's antenna from the station's, meters north, east and down (in the rover's
  /// local frame).
  public var north: Double
  public var east: Double
  public var down: Double

  /// Creates the use of a station's corrections.
  public init(
    ageSeconds: Double, stationID: Int, rangeErrorMeters: Double, north: Double, east: Double,
    down: Double
  ) {
    self.ageSeconds = ageSeconds
    self.stationID = stationID
    self.rangeErrorMeters = rangeErrorMeters
    self.north = north
    self.east = east
    self.down = down
  }

  /// The distance from the station, meters.
  public var baselineMeters: Double { (north * north + east * east + down * down).squareRoot() }
}

/// What a moving base rover made of its moving base's corrections at one epoch: the vector from
/// the base's antenna to its own at the base's latest epoch (time-matched, as a u-blox rover
/// in moving base mode gives it) and how far its carrier solution has converged.
public struct MovingBaseline: Hashable, Sendable {
  /// The vector, its age, station and range error (in the rover's local frame).
  public var corrections: CorrectionUse
  /// The vector's solution: `.differential` before the ambiguities float, then `.rtkFloat`,
  /// `.rtkFixed`.
  public var level: Fix.Correction
  /// True when the base's position is of an older epoch than its observations (a real rover
  /// extrapolates it: u-blox's `refPosMiss`).
  public var positionMissed: Bool
  /// True when the base's observations are of an older epoch than its position (`refObsMiss`).
  public var observationsMissed: Bool

  /// Creates a moving baseline.
  public init(
    corrections: CorrectionUse, level: Fix.Correction, positionMissed: Bool = false,
    observationsMissed: Bool = false
  ) {
    self.corrections = corrections
    self.level = level
    self.positionMissed = positionMissed
    self.observationsMissed = observationsMissed
  }
}

/// A reference station's state at one epoch: its survey-in (u-blox NAV-SVIN) and, once in time
/// mode, the antenna position it sends (RTCM 1005).
public struct BaseStationReport: Hashable, Sendable {
  /// Seconds the survey-in has run (0 outside one).
  public var surveySeconds: Int
  /// The mean of the positions observed, ECEF meters.
  public var mean: EarthCenteredPosition
  /// The one-sigma 3D accuracy of the mean, meters.
  public var meanAccuracyMeters: Double
  /// Positions averaged.
  public var observations: Int
  /// True once the survey-in met its duration and accuracy.
  public var isValid: Bool
  /// True while the survey-in runs.
  public var isActive: Bool
  /// The antenna reference point the station sends, once in time mode (a fixed position or a
  /// finished survey-in); nil before.
  public var reference: EarthCenteredPosition?

  /// Creates a report.
  public init(
    surveySeconds: Int, mean: EarthCenteredPosition, meanAccuracyMeters: Double,
    observations: Int, isValid: Bool, isActive: Bool, reference: EarthCenteredPosition?
  ) {
    self.surveySeconds = surveySeconds
    self.mean = mean
    self.meanAccuracyMeters = meanAccuracyMeters
    self.observations = observations
    self.isValid = isValid
    self.isActive = isActive
    self.reference = reference
  }
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
