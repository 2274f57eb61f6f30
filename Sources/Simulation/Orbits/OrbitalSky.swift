import Geodesy

/// The sky computed from orbits: each satellite's position from its Keplerian elements, then
/// its elevation and azimuth from where the receiver is.
///
/// Every satellite above the horizon is in view, at most `channelLimit` of them, the highest
/// first; one is used when it is healthy and at or above the elevation mask. Positions come
/// from a shared coarse time grid (`OrbitGrid`), so an epoch costs a few dot products per
/// satellite and two arctangents per satellite in view.
public struct OrbitalSky: Sky {
  /// The default elevation mask, degrees.
  public static let defaultElevationMask = 5.0

  /// Every satellite of the chosen constellations, in a fixed order.
  public let orbitingSatellites: [OrbitingSatellite]
  /// Satellites lower than this, in degrees, are in view but not used.
  public let elevationMask: Double
  /// At most this many satellites are in view.
  public let channelLimit: Int
  /// The SNR model.
  public let signalStrength: SignalStrength
  private let grid: OrbitGrid

  /// A sky from an almanac for GPS (the nominal GPS constellation when `almanac` is empty) and
  /// the nominal constellations for the other chosen systems.
  public init(
    almanac: [AlmanacEntry], constellations: Set<Constellation>,
    elevationMask: Double = OrbitalSky.defaultElevationMask, seed: UInt64 = 0,
    channelLimit: Int = 12
  ) {
    let almanacGPS = almanac.filter { $0.constellation == .gps }
    orbitingSatellites = Constellation.allCases.filter(constellations.contains).flatMap {
      constellation in
      constellation == .gps && !almanacGPS.isEmpty
        ? almanacGPS.map(OrbitingSatellite.init(almanac:))
        : NominalConstellation.satellites(of: constellation)
    }
    self.elevationMask = elevationMask
    self.channelLimit = max(0, channelLimit)
    signalStrength = SignalStrength(seed: seed)
    grid = OrbitGrid(orbits: orbitingSatellites.map(\.orbit))
  }

  /// The built-in nominal constellations: each system's real planes and slots.
  public static func nominal(
    constellations: Set<Constellation>, elevationMask: Double = OrbitalSky.defaultElevationMask,
    seed: UInt64 = 0, channelLimit: Int = 12
  ) -> OrbitalSky {
    OrbitalSky(
      almanac: [], constellations: constellations, elevationMask: elevationMask, seed: seed,
      channelLimit: channelLimit)
  }

  /// Each satellite's ECEF position at `time` from its orbit alone (no grid), in the order of
  /// `orbitingSatellites`.
  public func exactPositions(at time: UTCInstant) -> [EarthCenteredPosition] {
    let seconds = Double(GPSTime(time).nanosecondsSinceEpoch) / 1e9
    return orbitingSatellites.map { $0.orbit.position(atGPSSeconds: seconds) }
  }

  public func satellites(at time: UTCInstant, from position: GeodeticPosition)
    -> [SatelliteInView]
  {
    let positions = grid.positions(atGPSNanoseconds: GPSTime(time).nanosecondsSinceEpoch)
    let frame = LocalTangentFrame(at: position)
    var aboveHorizon: [Candidate] = []
    aboveHorizon.reserveCapacity(orbitingSatellites.count / 2)
    for index in positions.indices {
      let (east, north, up) = frame.eastNorthUp(of: positions[index])
      guard up > 0 else { continue }
      let range = (east * east + north * north + up * up).squareRoot()
      aboveHorizon.append(
        Candidate(index: index, sineOfElevation: up / range, east: east, north: north, up: up))
    }
    aboveHorizon.sort {
      ($0.sineOfElevation, $1.index) > ($1.sineOfElevation, $0.index)
    }
    let epochSecond = time.nanoseconds / UTCInstant.nanosecondsPerSecond
    let inView = aboveHorizon.prefix(channelLimit).map { candidate in
      let satellite = orbitingSatellites[candidate.index]
      let direction = LocalTangentFrame.direction(
        east: candidate.east, north: candidate.north, up: candidate.up)
      return SatelliteInView(
        constellation: satellite.constellation, id: satellite.id,
        elevation: direction.elevationDegrees, azimuth: direction.azimuthDegrees,
        snr: signalStrength.decibelHertz(
          constellation: satellite.constellation, id: satellite.id,
          elevationDegrees: direction.elevationDegrees, epochSecond: epochSecond),
        isUsed: satellite.isHealthy && direction.elevationDegrees >= elevationMask)
    }
    return inView.filter(\.isUsed) + inView.filter { !$0.isUsed }
  }

  /// A satellite above the horizon before the channel limit picks the highest.
  private struct Candidate {
    var index: Int
    var sineOfElevation: Double
    var east: Double
    var north: Double
    var up: Double
  }
}
