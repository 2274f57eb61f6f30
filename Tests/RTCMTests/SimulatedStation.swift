import GNSSMeasurements
import Geodesy
import Simulation

@testable import RTCM

/// A base station at a fixed place under the simulated GPS sky: the measurement engine's epochs
/// and the RTCM 3 stream a base would send from them.
struct SimulatedStation {
  /// 2026-01-01 00:00:00 UTC, 345,618 s into GPS week 2399.
  static let start = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)
  /// The same moment as RTKLIB's `-tr` wants it (GPS time: UTC + 18 s).
  static let startForRTKLIB = "2026/01/01 00:00:18"

  var place: GeodeticPosition
  var sky: OrbitalSky
  var engine: MeasurementEngine
  var stationID = 2003
  /// The signals measured.
  var signals: [Constellation: [GNSSSignal]] = [.gps: [.gpsL1CA]]

  /// A station at `place` (altitude above the ellipsoid) under a nominal sky of
  /// `constellations`.
  init(place: GeodeticPosition, seed: UInt64, constellations: Set<Constellation> = [.gps]) {
    self.place = place
    sky = OrbitalSky.nominal(constellations: constellations, seed: seed)
    engine = MeasurementEngine(satellites: sky.orbitingSatellites, seed: seed)
  }

  /// The station's ECEF position.
  var earthCentered: EarthCenteredPosition { EarthCenteredPosition(place) }

  /// The measurements `second` seconds after `start`.
  func epoch(second: Int) -> MeasurementEpoch {
    let time = Self.start.adding(nanoseconds: Int64(second) * 1_000_000_000)
    return engine.epoch(
      at: time, position: place, velocity: EarthCenteredPosition(x: 0, y: 0, z: 0),
      tracked: sky.satellites(at: time, from: place), signals: signals, epochPeriodSeconds: 1)
  }

  /// The 1005 message of the station.
  var stationReference: StationReference {
    let position = earthCentered
    return StationReference(stationID: stationID, x: position.x, y: position.y, z: position.z)
  }

  /// The 1019 messages of the satellites measured at `epoch`.
  func ephemerides(for epoch: MeasurementEpoch) -> [GPSEphemerisMessage] {
    let gpsSeconds = Double(epoch.week) * GPSSignal.secondsPerWeek + epoch.receiverSecondsOfWeek
    return epoch.measurements.compactMap {
      engine.ephemeris(number: $0.id, atGPSSeconds: gpsSeconds).map(GPSEphemerisMessage.init)
    }
  }

  /// `seconds` epochs at 1 Hz as a base sends them: 1005 and the ephemerides first, then every
  /// epoch's MSM of `kind`.
  func stream(seconds: Int, kind: MSMKind) throws -> [UInt8] {
    var encoder = MSMEpochEncoder(stationID: stationID, kind: kind)
    var bytes = RTCMFrame(payload: try stationReference.payload()).bytes
    for second in 0..<seconds {
      let epoch = epoch(second: second)
      if second == 0 {
        for ephemeris in ephemerides(for: epoch) {
          bytes += RTCMFrame(payload: ephemeris.payload()).bytes
        }
      }
      for message in encoder.messages(for: epoch) {
        bytes += RTCMFrame(payload: try message.payload()).bytes
      }
    }
    return bytes
  }
}
