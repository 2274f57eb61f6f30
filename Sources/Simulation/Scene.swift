import Geodesy

/// The simulated world: how the receiver moves and what sky it sees, turned into a `Fix` for any
/// epoch time.
public struct Scene: Sendable {
  public var motion: any Motion
  public var sky: any Sky
  /// Height of the geoid above the ellipsoid reported in GGA.
  public var geoidSeparationMeters: Double

  /// Creates a scene.
  public init(
    motion: any Motion, sky: any Sky = StaticSky.typicalGPS, geoidSeparationMeters: Double = 0
  ) {
    self.motion = motion
    self.sky = sky
    self.geoidSeparationMeters = geoidSeparationMeters
  }

  /// The fix at `time`: 3D with DOPs from the sky's geometry when at least four satellites are
  /// used, 2D with three, none below.
  public func fix(at time: UTCInstant) -> Fix {
    let state = motion.state(at: time)
    let satellites = sky.satellites(at: time, from: state.position)
    let used = satellites.filter(\.isUsed)
    let mode: Fix.Mode =
      used.count >= 4 ? .threeDimensional : used.count == 3 ? .twoDimensional : .noFix
    return Fix(
      time: time, mode: mode, position: state.position,
      geoidSeparationMeters: geoidSeparationMeters,
      speedMetersPerSecond: state.speedMetersPerSecond, courseDegrees: state.courseDegrees,
      satellites: satellites,
      dop: DilutionOfPrecision(directions: used.map { ($0.azimuth, $0.elevation) }))
  }
}
