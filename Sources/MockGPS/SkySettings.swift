import Geodesy
import Receiver
import Simulation

/// The sky the emulated receiver sees and the geoid it reports: satellites computed from orbits
/// (an almanac, or the built-in nominal constellations) for every profile.
public struct SkySettings: Hashable, Sendable {
  /// The GPS almanac the satellites come from (`--almanac`); nil uses the nominal
  /// constellations built in.
  public var almanac: [AlmanacEntry]?
  /// The systems tracked (`--constellations`); nil takes the profile's.
  public var constellations: Set<Constellation>?
  /// Satellites below this elevation, degrees, are not used.
  public var elevationMask: Double
  /// The seed of the signal-to-noise noise (`--seed`); nil takes a scenario's seed, else 0.
  public var seed: UInt64?
  /// The SBAS PRNs searched when SBAS is among the systems: every one until a client's
  /// configuration (CFG-SBAS's scan mask) narrows it.
  public var sbasPRNs = Set(SBASSatellite.prns)

  /// Creates settings; the defaults give the nominal sky of the profile's systems.
  public init(
    almanac: [AlmanacEntry]? = nil, constellations: Set<Constellation>? = nil,
    elevationMask: Double = OrbitalSky.defaultElevationMask, seed: UInt64? = nil
  ) {
    self.almanac = almanac
    self.constellations = constellations
    self.elevationMask = elevationMask
    self.seed = seed
  }

  /// The systems a receiver of `profile` tracks under these settings: only those its NMEA
  /// dialect can write, so that the fix, its DOPs and the satellites listed always agree (an
  /// NMEA 2.3 receiver asked for Galileo tracks none of it).
  public func constellations(for profile: ReceiverProfile) -> Set<Constellation> {
    (constellations ?? profile.defaultConstellations).intersection(
      profile.dialect.writableConstellations)
  }

  /// The orbital sky a receiver of `profile` sees, its channels limited to the chip's;
  /// `fallbackSeed` applies when no seed was given.
  public func makeSky(for profile: ReceiverProfile, fallbackSeed: UInt64 = 0) -> OrbitalSky {
    let systems = constellations(for: profile)
    if let almanac {
      return OrbitalSky(
        almanac: almanac, constellations: systems, elevationMask: elevationMask,
        seed: seed ?? fallbackSeed, channelLimit: profile.channelLimit, sbasPRNs: sbasPRNs)
    }
    return OrbitalSky.nominal(
      constellations: systems, elevationMask: elevationMask, seed: seed ?? fallbackSeed,
      channelLimit: profile.channelLimit, sbasPRNs: sbasPRNs)
  }
}

/// Which geoid the receiver reports its height above.
public enum GeoidChoice: Hashable, Sendable {
  /// EGM96, as receivers carry it.
  case egm96
  /// The same separation everywhere, meters (0: heights above the ellipsoid); for tests.
  case constant(Double)

  /// The model, or nil for a constant separation.
  var model: (any GeoidModel)? {
    switch self {
    case .egm96: return EGM96Geoid()
    case .constant: return nil
    }
  }

  /// The separation used where the model is nil.
  var constantSeparation: Double {
    if case .constant(let meters) = self { return meters }
    return 0
  }
}
