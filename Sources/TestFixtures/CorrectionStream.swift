import Geodesy
import RTCM
import Simulation

/// One second of RTCM 3 from a reference station, as a client writes corrections into a rover:
/// the station's position (1005) when asked, MSM4 of every satellite ID of GPS, GLONASS, Galileo
/// and BeiDou (so whatever the rover uses is shared), each stamped with the epoch `time` in its
/// system's time scale, and GLONASS biases (1230). Its observations carry plausible numbers,
/// not a sky's: for tests of what a rover makes of the stream, not of the measurements.
public enum CorrectionStream {
  /// The messages' bytes and how many messages they are.
  public static func second(
    stationID: Int, at place: GeodeticPosition, withPosition: Bool, time: UTCInstant
  ) throws(RTCMError) -> (bytes: [UInt8], count: Int) {
    let gps = GPSTime(time)
    var messages: [RTCMMessage] = []
    if withPosition {
      let ecef = EarthCenteredPosition(place)
      messages.append(
        .stationReference(StationReference(stationID: stationID, x: ecef.x, y: ecef.y, z: ecef.z))
      )
    }
    let systems: [(MSMSystem, ClosedRange<Int>)] = [
      (.gps, 1...32), (.glonass, 1...24), (.galileo, 1...36), (.beidou, 1...63),
    ]
    for (system, satellites) in systems {
      let cells = satellites.map { id in
        MSMMessage.Observation(
          satelliteID: id, signalID: 2, pseudorangeMeters: 21_000_000 + Double(id) * 1000,
          phaseRangeMeters: 21_000_000 + Double(id) * 1000, lockTimeMilliseconds: 60_000,
          carrierToNoise: 45)
      }
      messages.append(
        .msm(
          MSMMessage(
            system: system, kind: .msm4, stationID: stationID,
            epochTime: system.timeScale.epochTime(
              gpsSecondsOfWeek: Double(gps.nanosecondsOfWeek / 1_000_000) / 1000,
              leapSeconds: gps.leapSeconds),
            observations: cells)))
    }
    messages.append(.glonassBiases(GLONASSBiases(stationID: stationID)))
    var bytes: [UInt8] = []
    for message in messages { bytes += try message.frame().bytes }
    return (bytes, messages.count)
  }
}
