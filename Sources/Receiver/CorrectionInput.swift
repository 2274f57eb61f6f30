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
  /// One system's observations of an epoch: the satellites the station measured, and the
  /// epoch's time as the MSM carries it (DF004 in the system's time scale: GPS and Galileo
  /// milliseconds of the GPS week, BeiDou's 14 s behind, GLONASS a day of the week in 3 bits
  /// and milliseconds of the Moscow day in 27).
  case observations(stationID: Int, system: Constellation, satellites: Set<Int>, epochTime: Int)
  /// GLONASS code-phase biases, without which a rover cannot fix GLONASS ambiguities.
  case glonassBiases(stationID: Int)
  /// A moving base's antenna at an epoch (u-blox 4072.0): its position and the epoch's
  /// milliseconds of the GPS week.
  case movingStation(stationID: Int, position: EarthCenteredPosition, epochTime: Int)

  /// The input of a message a rover uses, or nil for any other (an MSM of a system the
  /// emulator has no satellites of, 1019, 4072.1, a message the RTCM module does not decode).
  public init?(_ message: RTCMMessage) {
    switch message {
    case .stationReference(let station):
      self = .station(
        stationID: station.stationID,
        position: EarthCenteredPosition(x: station.x, y: station.y, z: station.z))
    case .msm(let msm):
      guard let system = Self.constellation(of: msm.system) else { return nil }
      self = .observations(
        stationID: msm.stationID, system: system, satellites: Set(msm.satelliteIDs),
        epochTime: msm.epochTime)
    case .glonassBiases(let biases):
      self = .glonassBiases(stationID: biases.stationID)
    case .movingBaseReference(let base):
      self = .movingStation(
        stationID: base.stationID,
        position: EarthCenteredPosition(x: base.x, y: base.y, z: base.z),
        epochTime: base.gpsMillisecondsOfWeek)
    case .gpsEphemeris, .unsupported:
      return nil
    }
  }

  /// The MSM system of a constellation, nil for SBAS.
  static func msmSystem(of constellation: Constellation) -> MSMSystem? {
    [MSMSystem.gps, .glonass, .galileo, .beidou].first {
      self.constellation(of: $0) == constellation
    }
  }

  /// The epoch time field of the moment `time` in `system`'s MSM (0 for SBAS).
  public static func epochTime(of time: UTCInstant, system: Constellation) -> Int {
    let gps = GPSTime(time)
    return msmSystem(of: system)?.timeScale.epochTime(
      gpsSecondsOfWeek: Double(gps.nanosecondsOfWeek / 1_000_000) / 1000,
      leapSeconds: gps.leapSeconds) ?? 0
  }

  /// The moment an MSM epoch time field of `system` stands for, the one nearest `arrival`
  /// (the field repeats every week, GLONASS's every day when its day is 7, unknown); nil for
  /// a field out of its range.
  public static func epoch(of field: Int, system: Constellation, near arrival: UTCInstant)
    -> UTCInstant?
  {
    let week: Int64 = 604_800_000
    let day: Int64 = 86_400_000
    let gps = GPSTime(arrival)
    var gpsMilliseconds: Int64
    var period = week
    switch system {
    case .gps, .galileo, .sbas:
      guard field >= 0, Int64(field) < week else { return nil }
      gpsMilliseconds = Int64(field)
    case .beidou:
      guard field >= 0, Int64(field) < week else { return nil }
      gpsMilliseconds = Int64(field) + 14_000
    case .glonass:
      guard field >= 0, field >> 27 <= 7 else { return nil }
      let dayOfWeek = Int64(field >> 27)
      let moscowMilliseconds = Int64(field & (1 << 27 - 1))
      guard moscowMilliseconds < day + 1000 else { return nil }
      let utcOfDay = moscowMilliseconds - 3 * 3_600_000
      if dayOfWeek == 7 {
        period = day
        gpsMilliseconds = utcOfDay + Int64(gps.leapSeconds) * 1000
      } else {
        gpsMilliseconds = dayOfWeek * day + utcOfDay + Int64(gps.leapSeconds) * 1000
      }
    }
    // The candidate nearest the arrival, a whole period either side.
    let periodNanoseconds = period * 1_000_000
    var offset = (gpsMilliseconds * 1_000_000 - gps.nanosecondsOfWeek) % periodNanoseconds
    if offset > periodNanoseconds / 2 { offset -= periodNanoseconds }
    if offset < -periodNanoseconds / 2 { offset += periodNanoseconds }
    return arrival.adding(nanoseconds: offset)
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
    case .observations(let id, let system, let satellites, _):
      return "\(system.rawValue) observations of \(satellites.count) satellites from station \(id)"
    case .glonassBiases(let id): return "GLONASS biases of station \(id)"
    case .movingStation(let id, _, _): return "position of moving base \(id)"
    }
  }
}
