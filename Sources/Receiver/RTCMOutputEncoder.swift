import GNSSMeasurements
import RTCM
import Simulation
import UBX

/// The RTCM 3 a u-blox 9 sends on UART1 at the rates of CFG-MSGOUT-RTCM_3X_* (or CFG-MSG class
/// 0xF5): the station's position (1005) once in time mode, MSM4 and MSM7 of the systems
/// measured, and GLONASS code-phase biases (1230), with the station ID of CFG-RTCM-DF003_OUT.
///
/// The measurement engine measures GPS L1 C/A only, so 1074 and 1077 carry observations and the
/// MSMs of GLONASS, Galileo and BeiDou are not sent; 1230 carries the four biases (L1 C/A, L1 P,
/// L2 C/A, L2 P) as zero, none being modelled (RTKLIB's decoder needs them: an empty 1230 is an
/// error to it). 4072 (moving base) is not sent.
public struct RTCMOutputEncoder: Hashable, Sendable {
  /// The reference station ID of every message (CFG-RTCM-DF003_OUT).
  public var stationID = 0

  /// An encoder for station 0.
  public init() {}

  /// The frames due in the epoch with this index, measured by `measurements` when it is
  /// given (the raw measurement encoder of a chip with an orbital sky).
  public func frames(
    for fix: Fix, output: OutputSelection, epochIndex: Int,
    measurements: UBXRawMeasurementEncoder?
  ) -> [[UInt8]] {
    let due = { (number: Int) in
      UBXMessageType.rtcmOutput(number).map { output.sends(rtcm: $0, epochIndex: epochIndex) }
        ?? false
    }
    var messages: [RTCMMessage] = []
    if due(1005), let reference = fix.base?.reference {
      messages.append(
        .stationReference(
          StationReference(
            stationID: stationID, x: reference.x, y: reference.y, z: reference.z,
            servesGLONASS: true, servesGalileo: true)))
    }
    let kinds = [(1074, MSMKind.msm4), (1077, .msm7)].filter { due($0.0) }.map(\.1)
    if !kinds.isEmpty, let measurements, let epoch = measurements.epoch(for: fix) {
      let engine = measurements.engine
      for kind in kinds {
        messages += MSMEpochEncoder.messages(
          for: epoch, stationID: stationID, kind: kind,
          ambiguityCycles: {
            engine.noise.ambiguityCycles(constellation: $0.constellation, id: $0.id)
          }
        )
        .map(RTCMMessage.msm)
      }
    }
    if due(1230) {
      // The four biases (L1 C/A, L1 P, L2 C/A, L2 P), all zero: RTKLIB's decoder needs them.
      messages.append(
        .glonassBiases(
          GLONASSBiases(stationID: stationID, biasesMeters: [0, 0, 0, 0])))
    }
    return messages.compactMap { try? $0.frame().bytes }
  }
}
