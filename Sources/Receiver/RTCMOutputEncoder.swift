import GNSSMeasurements
import Geodesy
import RTCM
import Simulation
import UBX

/// The RTCM 3 a u-blox 9 sends on UART1 at the rates of CFG-MSGOUT-RTCM_3X_* (or CFG-MSG class
/// 0xF5): the station's position (1005) once in time mode, MSM4 and MSM7 of the systems
/// measured, and GLONASS code-phase biases (1230), with the station ID of CFG-RTCM-DF003_OUT.
///
/// The MSMs of GPS (1074/1077), GLONASS (1084/1087, each slot's phase in its channel's
/// wavelength, MSM7 with the channel), Galileo (1094/1097) and BeiDou (1124/1127) carry the
/// signals the chip measures (`UBXRawMeasurementEncoder`); 1230 carries the four biases (L1 C/A,
/// L1 P, L2 C/A, L2 P) as zero, none being modelled (RTKLIB's decoder needs them: an empty 1230
/// is an error to it). Out of time mode, 4072.0 carries the antenna's position and velocity for
/// a rover on the same vehicle (a moving base; `MovingBaseReference`); 4072.1 is not sent
/// (u-blox documents neither's contents).
public struct RTCMOutputEncoder: Hashable, Sendable {
  /// The reference station ID of every message (CFG-RTCM-DF003_OUT).
  public var stationID = 0

  /// The MSM base numbers (MSMn is the base + n) of the systems the engine measures.
  static let msmNumbers = Set(
    GNSSSignal.allCases.map { MSMEpochEncoder.msmSignal(of: $0).system.baseMessageNumber })

  /// An encoder for station 0.
  public init() {}

  /// The frames due in the epoch with this index, `signals` measured by `measurements` when
  /// it is given (the raw measurement encoder of a chip with an orbital sky).
  public func frames(
    for fix: Fix, output: OutputSelection, epochIndex: Int,
    measurements: UBXRawMeasurementEncoder?, signals: [Constellation: [GNSSSignal]]
  ) -> [[UInt8]] {
    let due = { (number: Int) in
      UBXMessageType.rtcmOutput(number).map { output.sends(rtcm: $0, epochIndex: epochIndex) }
        ?? false
    }
    var messages: [RTCMMessage] = []
    if due(40720), fix.base == nil, let moving = movingBase(for: fix) {
      messages.append(.movingBaseReference(moving))
    }
    if due(1005), let reference = fix.base?.reference {
      messages.append(
        .stationReference(
          StationReference(
            stationID: stationID, x: reference.x, y: reference.y, z: reference.z,
            servesGLONASS: true, servesGalileo: true)))
    }
    let dueMSMs = Set(
      Self.msmNumbers.flatMap { system in [system + 4, system + 7] }.filter(due))
    if !dueMSMs.isEmpty, let measurements,
      let epoch = measurements.epoch(for: fix, signals: signals)
    {
      let engine = measurements.engine(for: fix)
      for kind in [MSMKind.msm4, .msm7] {
        var sent = epoch
        sent.measurements.removeAll {
          !dueMSMs.contains(
            MSMEpochEncoder.msmSignal(of: $0.signal).system.baseMessageNumber + kind.rawValue)
        }
        guard !sent.measurements.isEmpty else { continue }
        messages += MSMEpochEncoder.messages(
          for: sent, stationID: stationID, kind: kind,
          ambiguityCycles: {
            engine.ambiguityCycles(of: $0.constellation, id: $0.id, signal: $0.signal)
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

  /// The moving base's 4072.0 at a fix: its antenna (without the solution's faults, when the
  /// source gave it) and velocity at the fix's time; nil without a fix.
  func movingBase(for fix: Fix) -> MovingBaseReference? {
    guard fix.mode != .noFix else { return nil }
    let antenna = fix.faultFreeAntenna ?? EarthCenteredPosition(fix.ellipsoidalPosition)
    let velocity = UbloxVelocity(fix: fix).earthCentered
    return MovingBaseReference(
      stationID: stationID,
      gpsMillisecondsOfWeek: CorrectionInput.epochTime(of: fix.time, system: .gps),
      x: antenna.x, y: antenna.y, z: antenna.z,
      velocityX: velocity.x, velocityY: velocity.y, velocityZ: velocity.z)
  }
}
