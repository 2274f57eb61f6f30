import Geodesy
import RTCM
import Simulation

/// What a rover takes from one RTCM 3 message of a reference station: its antenna's position
/// (1005, 1006), which satellites it observed (MSM4 to MSM7 of GPS, GLONASS, Galileo, BeiDou)
/// or its GLONASS code-phase biases (1230), each with the station's ID.
public enum CorrectionInput: Hashable, Sendable {
  /// The station's antenna reference point (1005, or 1006 whose antenna height is the
  /// marker's, not the antenna's: the reference point is what a rover's baseline ends at).
  case station(stationID: Int, position: EarthCenteredPosition)
  /// One system's observations of an epoch: the satellites the station measured.
  case observations(stationID: Int, system: Constellation, satellites: Set<Int>)
  /// GLONASS code-phase biases, without which a rover cannot fix GLONASS ambiguities.
  case glonassBiases(stationID: Int)

  /// The input of a message a rover uses, or nil for any other (an MSM of a system the
  /// emulator has no satellites of, 1019, 4072, a message the RTCM module does not decode).
  public init?(_ message: RTCMMessage) {
    switch message {
    case .stationReference(let station):
      self = .station(
        stationID: station.stationID,
        position: EarthCenteredPosition(x: station.x, y: station.y, z: station.z))
    case .msm(let msm):
      guard let system = Self.constellation(of: msm.system) else { return nil }
      self = .observations(
        stationID: msm.stationID, system: system, satellites: Set(msm.satelliteIDs))
    case .glonassBiases(let biases):
      self = .glonassBiases(stationID: biases.stationID)
    case .gpsEphemeris, .unsupported:
      return nil
    }
  }

  /// The constellation of an MSM system, nil for QZSS and SBAS (none in the sky).
  static func constellation(of system: MSMSystem) -> Constellation? {
    switch system.baseMessageNumber {
    case MSMSystem.gps.baseMessageNumber: return .gps
    case MSMSystem.glonass.baseMessageNumber: return .glonass
    case MSMSystem.galileo.baseMessageNumber: return .galileo
    case MSMSystem.beidou.baseMessageNumber: return .beidou
    default: return nil
    }
  }

  /// A short text for the log: `station 2003`, `GPS observations of 9 satellites from station
  /// 2003`, `GLONASS biases of station 2003`.
  public var summary: String {
    switch self {
    case .station(let id, _): return "position of station \(id)"
    case .observations(let id, let system, let satellites):
      return "\(system.rawValue) observations of \(satellites.count) satellites from station \(id)"
    case .glonassBiases(let id): return "GLONASS biases of station \(id)"
    }
  }
}
