import Geodesy

/// The sky computed from orbits: each satellite's position from its Keplerian elements, then
/// its elevation and azimuth from where the receiver is.
///
/// PLACEHOLDER (issue 8 contract): shows `StaticSky.typicalGPS` until the orbits helper
/// replaces this file. The initialisers are the contract.
public struct OrbitalSky: Sky {
  /// The default elevation mask, degrees.
  public static let defaultElevationMask = 5.0

  /// A sky from an almanac (GPS satellites).
  public init(
    almanac: [AlmanacEntry], constellations: Set<Constellation>,
    elevationMask: Double = OrbitalSky.defaultElevationMask, seed: UInt64 = 0,
    channelLimit: Int = 12
  ) {}

  /// The built-in nominal constellations: each system's real planes and slots.
  public static func nominal(
    constellations: Set<Constellation>, elevationMask: Double = OrbitalSky.defaultElevationMask,
    seed: UInt64 = 0, channelLimit: Int = 12
  ) -> OrbitalSky {
    OrbitalSky(
      almanac: [], constellations: constellations, elevationMask: elevationMask, seed: seed,
      channelLimit: channelLimit)
  }

  public func satellites(at time: UTCInstant, from position: GeodeticPosition)
    -> [SatelliteInView]
  {
    StaticSky.typicalGPS.satellites(at: time, from: position)
  }
}
