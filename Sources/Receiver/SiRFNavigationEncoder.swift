import Geodesy
import SiRF
import Simulation

/// Writes one epoch as a SiRFstar in binary mode sends it: the messages switched on in the
/// output (`OutputSelection.sirf`), each a view of the same solution.
public enum SiRFNavigationEncoder {
  /// What a SiRFstar IV sends each second once `$PSRF100,0,…` switched it to binary, in the
  /// order it sends them: measured navigation (2), tracker (4), clock status (7), throughput
  /// (9) and geodetic navigation (41).
  public static let defaultRates: [UInt8: Int] = [2: 1, 4: 1, 7: 1, 9: 1, 41: 1]

  /// The order of the messages within an epoch.
  static let order: [UInt8] = [2, 4, 7, 9, 41]

  /// The frames of the epoch with this index; none unless the port speaks SiRF binary.
  public static func frames(for fix: Fix, output: OutputSelection, epochIndex: Int) -> [SiRFFrame] {
    let due = order.filter { output.sends(sirf: $0, epochIndex: epochIndex) }
    guard !due.isEmpty else { return [] }
    let solution = solution(for: fix)
    return due.compactMap { id in
      switch id {
      case SiRFMessageID.measuredNavigation: return solution.measuredNavigation
      case SiRFMessageID.measuredTracker: return solution.measuredTracker
      case SiRFMessageID.clockStatus: return solution.clockStatus
      case SiRFMessageID.throughput: return SiRFReplies.throughput
      case SiRFMessageID.geodeticNavigation: return solution.geodeticNavigation
      default: return nil
      }
    }
  }

  /// The fix in SiRF's terms: GPS time, ECEF, the GPS and SBAS satellites on twelve channels
  /// (a SiRFstar IV's binary tracker message has no other systems), errors from the HDOP.
  public static func solution(for fix: Fix) -> SiRFSolution {
    let gpsTime = GPSTime(fix.time)
    let civil = fix.time.civil
    let heightAboveEllipsoid = fix.position.altitudeMeters + fix.geoidSeparationMeters
    let ecef = EarthCenteredPosition(
      latitude: fix.position.latitude, longitude: fix.position.longitude,
      heightAboveEllipsoidMeters: heightAboveEllipsoid)
    let velocity = UbloxVelocity(fix: fix).earthCentered
    let kind: SiRFSolution.Kind
    switch fix.mode {
    case .noFix: kind = .none
    case .twoDimensional: kind = .threeSatellites
    case .threeDimensional: kind = .fourOrMoreSatellites
    }
    let hdop = fix.dop?.horizontal ?? 0
    let vdop = fix.dop?.vertical ?? 0
    let sigma = UBXNavigationEncoder.rangeErrorMeters
    let channels = fix.satellites.filter { $0.constellation == .gps }.map { satellite in
      SiRFChannel(
        prn: satellite.id, azimuthDegrees: satellite.azimuth,
        elevationDegrees: satellite.elevation, carrierToNoise: satellite.snr ?? 0,
        isUsed: satellite.isUsed)
    }
    return SiRFSolution(
      kind: kind, isDifferential: fix.correction != .none, gpsWeek: gpsTime.week,
      millisecondsOfWeek: gpsTime.nanosecondsOfWeek / 1_000_000,
      utc: (
        civil.year, civil.month, civil.day, civil.hour, civil.minute,
        civil.second * 1000 + civil.nanosecond / 1_000_000
      ),
      latitude: fix.position.latitude, longitude: fix.position.longitude,
      heightAboveEllipsoidMeters: heightAboveEllipsoid,
      heightAboveMeanSeaLevelMeters: fix.position.altitudeMeters,
      ecef: (ecef.x, ecef.y, ecef.z), ecefVelocity: (velocity.x, velocity.y, velocity.z),
      speedMetersPerSecond: fix.speedMetersPerSecond, courseDegrees: fix.courseDegrees,
      climbMetersPerSecond: fix.climbMetersPerSecond, hdop: hdop,
      horizontalErrorMeters: hdop * sigma, verticalErrorMeters: vdop * sigma,
      channels: channels.filter(\.isUsed) + channels.filter { !$0.isUsed })
  }
}
