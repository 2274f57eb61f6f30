import Geodesy

/// The sky computed from orbits: each satellite's position from its Keplerian elements, then
/// its elevation and azimuth from where the receiver is.
///
/// Every satellite above the horizon is in view, at most `channelLimit` of them, the highest
/// first; one is used when it is healthy and at or above the elevation mask. Positions come
/// from a shared coarse time grid (`OrbitGrid`), so an epoch costs a few dot products per
/// satellite and two polynomial arctangents per satellite in view.
///
/// With SBAS among the systems, the geostationary SBAS satellites searched (`SBASSatellite`)
/// at or above the elevation mask are in view too, after the others and in the channels they
/// leave: tracked, never used in the fix.
public struct OrbitalSky: Sky {
  /// The default elevation mask, degrees.
  public static let defaultElevationMask = 5.0

  /// Every satellite of the chosen constellations: by system (GPS, GLONASS, Galileo, BeiDou),
  /// then by number.
  public let orbitingSatellites: [OrbitingSatellite]
  /// Satellites lower than this, in degrees, are in view but not used.
  public let elevationMask: Double
  /// At most this many satellites are in view.
  public let channelLimit: Int
  /// The SNR model.
  public let signalStrength: SignalStrength
  /// The SBAS satellites searched, by PRN: none unless SBAS is among the systems.
  public let sbasSatellites: [SBASSatellite]
  private let grid: OrbitGrid

  /// A sky from an almanac for GPS (the nominal GPS constellation when `almanac` is empty) and
  /// the nominal constellations for the other chosen systems; with SBAS, the operational SBAS
  /// satellites whose PRN is in `sbasPRNs`.
  public init(
    almanac: [AlmanacEntry], constellations: Set<Constellation>,
    elevationMask: Double = OrbitalSky.defaultElevationMask, seed: UInt64 = 0,
    channelLimit: Int = 12, sbasPRNs: Set<Int> = Set(SBASSatellite.prns)
  ) {
    let almanacGPS = almanac.filter { $0.constellation == .gps }
    orbitingSatellites = Constellation.allCases.filter(constellations.contains).flatMap {
      constellation in
      constellation == .gps && !almanacGPS.isEmpty
        ? almanacGPS.map(OrbitingSatellite.init(almanac:)).sorted { $0.id < $1.id }
        : NominalConstellation.satellites(of: constellation).sorted { $0.id < $1.id }
    }
    self.elevationMask = elevationMask
    self.channelLimit = max(0, channelLimit)
    signalStrength = SignalStrength(seed: seed)
    sbasSatellites =
      constellations.contains(.sbas)
      ? SBASSatellite.operational.filter { sbasPRNs.contains($0.prn) } : []
    grid = OrbitGrid(orbits: orbitingSatellites.map(\.orbit))
  }

  /// The built-in nominal constellations: each system's real planes and slots.
  public static func nominal(
    constellations: Set<Constellation>, elevationMask: Double = OrbitalSky.defaultElevationMask,
    seed: UInt64 = 0, channelLimit: Int = 12, sbasPRNs: Set<Int> = Set(SBASSatellite.prns)
  ) -> OrbitalSky {
    OrbitalSky(
      almanac: [], constellations: constellations, elevationMask: elevationMask, seed: seed,
      channelLimit: channelLimit, sbasPRNs: sbasPRNs)
  }

  /// Each satellite's ECEF position at `time` from its orbit alone (no grid), in the order of
  /// `orbitingSatellites`.
  public func exactPositions(at time: UTCInstant) -> [EarthCenteredPosition] {
    let seconds = Double(GPSTime(time).nanosecondsSinceEpoch) / 1e9
    return orbitingSatellites.map { $0.orbit.position(atGPSSeconds: seconds) }
  }

  /// The satellites above the horizon, at most `channelLimit` (the highest), used ones first,
  /// each group in the order of `orbitingSatellites` (by system, then number); then the SBAS
  /// satellites at or above the elevation mask, by PRN, in the channels left.
  public func satellites(at time: UTCInstant, from position: GeodeticPosition)
    -> [SatelliteInView]
  {
    let (before, after, fraction) = grid.bracket(
      atGPSNanoseconds: GPSTime(time).nanosecondsSinceEpoch)
    let frame = LocalTangentFrame(at: position)
    let epochSecond = time.nanoseconds / UTCInstant.nanosecondsPerSecond
    var inView: [SatelliteInView] = []
    inView.reserveCapacity(min(channelLimit, before.count + sbasSatellites.count))
    // The candidates and the unused satellites in room on the stack: the result is the one
    // array an epoch allocates here. Both are plain values (no references), so the buffers
    // are left without deinitializing them; a reference added to either must change that.
    withUnsafeTemporaryAllocation(of: Candidate.self, capacity: before.count) { candidates in
      var aboveHorizon = 0
      for index in before.indices {
        let a = before[index]
        let b = after[index]
        let (east, north, up) = frame.eastNorthUp(
          of: EarthCenteredPosition(
            x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction,
            z: a.z + (b.z - a.z) * fraction))
        guard up > 0 else { continue }
        let range = (east * east + north * north + up * up).squareRoot()
        candidates.initializeElement(
          at: aboveHorizon,
          to: Candidate(index: index, sineOfElevation: up / range, east: east, north: north, up: up)
        )
        aboveHorizon += 1
      }
      let above = UnsafeBufferPointer(rebasing: candidates[..<aboveHorizon])
      let lowestKept = Self.lowestKept(above, limit: channelLimit)
      withUnsafeTemporaryAllocation(
        of: SatelliteInView.self, capacity: min(channelLimit, aboveHorizon)
      ) { unused in
        var unusedCount = 0
        var kept = 0
        for candidate in above
        where candidate.sineOfElevation >= lowestKept && kept < channelLimit {
          kept += 1
          let satellite = orbitingSatellites[candidate.index]
          let direction = LocalTangentFrame.direction(
            east: candidate.east, north: candidate.north, up: candidate.up)
          let view = SatelliteInView(
            constellation: satellite.constellation, id: satellite.id,
            elevation: direction.elevationDegrees, azimuth: direction.azimuthDegrees,
            snr: signalStrength.decibelHertz(
              constellation: satellite.constellation, id: satellite.id,
              elevationDegrees: direction.elevationDegrees, epochSecond: epochSecond),
            isUsed: satellite.isHealthy && direction.elevationDegrees >= elevationMask)
          if view.isUsed {
            inView.append(view)
          } else {
            unused.initializeElement(at: unusedCount, to: view)
            unusedCount += 1
          }
        }
        inView.append(contentsOf: UnsafeBufferPointer(rebasing: unused[..<unusedCount]))
      }
    }
    for sbas in sbasSatellites where inView.count < channelLimit {
      let direction = frame.direction(of: sbas.position)
      guard direction.elevationDegrees >= elevationMask else { continue }
      inView.append(
        SatelliteInView(
          constellation: .sbas, id: sbas.prn, elevation: direction.elevationDegrees,
          azimuth: direction.azimuthDegrees,
          snr: signalStrength.decibelHertz(
            constellation: .sbas, id: sbas.prn, elevationDegrees: direction.elevationDegrees,
            epochSecond: epochSecond),
          isUsed: false))
    }
    return inView
  }

  /// The sine of elevation of the lowest satellite the channels keep: the `limit`-th highest
  /// (ties go to the earlier satellite), or −1 when all fit.
  ///
  /// The `limit` highest so far are kept in descending order in room on the stack, each
  /// candidate inserted where it belongs: no array to allocate and sort every epoch.
  private static func lowestKept(_ candidates: UnsafeBufferPointer<Candidate>, limit: Int)
    -> Double
  {
    guard candidates.count > limit else { return -1 }
    guard limit > 0 else { return .infinity }
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: limit) { highest in
      var count = 0
      for candidate in candidates {
        let sine = candidate.sineOfElevation
        if count == limit {
          guard sine > highest[limit - 1] else { continue }
        } else {
          count += 1
        }
        var slot = count - 1
        while slot > 0, highest[slot - 1] < sine {
          highest[slot] = highest[slot - 1]
          slot -= 1
        }
        highest[slot] = sine
      }
      return highest[limit - 1]
    }
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
