import GNSSMeasurements
import Simulation
import UBX

/// The signals NAV-SIG lists: those whose GSV groups the NMEA dialect writes, each NMEA signal
/// ID (NMEA 4.11) translated to the u-blox `sigId` of the signal the ZED-F9P tracks (its
/// interface description's signal identifiers, as RTKLIB's `ublox.c` reads them).
extension UBXNavigationEncoder {
  /// The u-blox signal ID of each NMEA signal ID per system: GPS L1C/A and L2 CL, GLONASS L1
  /// and L2 OF, Galileo E1 C and E5b Q, BeiDou B1I and B2I (D1; the F9P writes B2I's GSV with
  /// an empty signal ID, the nil key). SBAS has no GSV group of its own: its L1C/A is signal 0.
  static let ubloxSignalIDs: [Constellation: [Int?: UInt8]] = [
    .gps: [1: 0, 6: 3], .glonass: [1: 0, 3: 2], .galileo: [7: 0, 2: 6], .beidou: [1: 0, nil: 2],
  ]

  /// The u-blox signal IDs of `signals` per u-blox system; a system without signals listed
  /// tracks its first (signal ID 0), an NMEA signal without a u-blox one is left out.
  var signalIDs: [UBXSatellite.System: [UInt8]] {
    var ids: [UBXSatellite.System: [UInt8]] = [:]
    for (constellation, nmea) in signals {
      let table = Self.ubloxSignalIDs[constellation] ?? [:]
      ids[Self.system(constellation)] = nmea.compactMap { table[$0] }
    }
    return ids
  }

  /// The measured signal of each NMEA signal ID, for the systems the measurement engine
  /// measures (`GNSSSignal`).
  static let measuredSignalsByNMEAID: [Constellation: [Int?: GNSSSignal]] = [
    .gps: [1: .gpsL1CA, 6: .gpsL2CL], .glonass: [1: .glonassL1OF, 3: .glonassL2OF],
    .galileo: [7: .galileoE1C, 2: .galileoE5bQ], .beidou: [1: .beidouB1I, nil: .beidouB2I],
  ]

  /// The signals RXM-RAWX measures per system for the NMEA signal IDs `signals`: those the
  /// engine knows, or a system's first signal when its dialect lists none (NMEA before 4.10).
  static func measuredSignals(of signals: [Constellation: [Int?]]) -> [Constellation: [GNSSSignal]]
  {
    var measured: [Constellation: [GNSSSignal]] = [:]
    for (constellation, table) in Self.measuredSignalsByNMEAID {
      guard let nmea = signals[constellation] else {
        measured[constellation] = Array(GNSSSignal.signals(of: constellation).prefix(1))
        continue
      }
      measured[constellation] = nmea.compactMap { table[$0] }
    }
    return measured
  }
}
