/// One satellite of a sky: who it is, whether it may be used, and its orbit.
public struct OrbitingSatellite: Hashable, Sendable {
  /// Its system.
  public var constellation: Constellation
  /// Its number within its system (see `SatelliteInView.id`).
  public var id: Int
  /// False when its health bits say it must not be used in a fix.
  public var isHealthy: Bool
  /// Where it is at any time.
  public var orbit: KeplerianOrbit

  /// Creates a satellite.
  public init(constellation: Constellation, id: Int, isHealthy: Bool, orbit: KeplerianOrbit) {
    self.constellation = constellation
    self.id = id
    self.isHealthy = isHealthy
    self.orbit = orbit
  }

  /// The satellite of an almanac entry.
  public init(almanac entry: AlmanacEntry) {
    self.init(
      constellation: entry.constellation, id: entry.prn, isHealthy: entry.isHealthy,
      orbit: KeplerianOrbit(almanac: entry))
  }
}
