import Geodesy

/// The simulated world: how the receiver moves and what sky it sees, turned into a `Fix` for any
/// epoch time.
public struct Scene: Sendable {
  public var motion: any Motion {
    didSet { skiesOfTheSecond = SkyOfTheSecondMemo() }
  }
  public var sky: any Sky {
    didSet { skiesOfTheSecond = SkyOfTheSecondMemo() }
  }
  /// Height of the geoid above the ellipsoid reported in GGA where `geoid` is nil.
  public var geoidSeparationMeters: Double
  /// The geoid model giving the separation at each position; nil uses `geoidSeparationMeters`.
  public var geoid: (any GeoidModel)?
  /// What goes wrong with the solution, and when; none by default.
  public var faults: FixFaults
  /// The sky of the last second a fix was asked for (see `SkyOfTheSecond`).
  private var skiesOfTheSecond = SkyOfTheSecondMemo()

  /// Creates a scene.
  public init(
    motion: any Motion, sky: any Sky = StaticSky.typicalGPS, geoidSeparationMeters: Double = 0,
    faults: FixFaults = .none, geoid: (any GeoidModel)? = nil
  ) {
    self.motion = motion
    self.sky = sky
    self.geoidSeparationMeters = geoidSeparationMeters
    self.faults = faults
    self.geoid = geoid
  }

  /// The fix at `time` with the faults active at that time applied (see `FixFaults`).
  public func fix(at time: UTCInstant) -> Fix {
    var fix = faultFreeFix(at: time)
    faults.apply(to: &fix)
    fix.signalsReacquired = faults.signalsReacquired(by: time).map(faults.reportedTime(of:))
    return fix
  }

  /// The geoid's height above the ellipsoid at a position: the model's, else the constant.
  public func geoidSeparation(at position: GeodeticPosition) -> Double {
    geoid?.separationMeters(latitude: position.latitude, longitude: position.longitude)
      ?? geoidSeparationMeters
  }

  /// The fix at `time` as the motion and sky give it: 3D with DOPs from the sky's geometry when
  /// at least four satellites are used, 2D with three, none below. The sky is that of the UTC
  /// second holding `time`, or of the change within it (`SkyOfTheSecond`); the position and
  /// motion are those of `time`.
  public func faultFreeFix(at time: UTCInstant) -> Fix {
    let state = motion.state(at: time)
    let seen = SkyOfTheSecond.instant(seenAt: time, motion: motion)
    let view = skiesOfTheSecond.sky(at: seen) {
      SkyOfTheSecond(
        of: sky, at: seen, from: seen == time ? state.position : motion.state(at: seen).position)
    }
    return Fix(
      time: time, mode: Fix.Mode(satellitesUsedCount: view.usedCount), position: state.position,
      geoidSeparationMeters: geoidSeparation(at: state.position),
      speedMetersPerSecond: state.speedMetersPerSecond, courseDegrees: state.courseDegrees,
      satellites: view.satellites, dop: view.dop, climbMetersPerSecond: state.climbMetersPerSecond)
  }
}
