import GNSSMeasurements
import Simulation
import UBX

/// One NAV message of a solution by type, for the periodic output and for a poll, with what
/// the chip adds beyond the fix: its time to first fix, time since startup and clock.
extension UBXNavigationEncoder {
  /// The NAV messages the chip has, in `messageOrder`: u-blox 9 no longer has NAV-SOL and
  /// NAV-SVINFO, and u-blox 8 lacks those u-blox 9 added (`UbloxFirmware.missingMessages`).
  public var navigationMessages: [UBXMessageType] {
    let firmware = UbloxFirmware(commandSet: profile.commandSet)
    return Self.messageOrder.filter { !firmware.missingMessages.contains($0) }
  }

  /// The NAV message `type` of the epoch whose fix is `fix`, or nil for a message the chip
  /// does not have (or one that is not a NAV message this emulator builds).
  public func frame(_ type: UBXMessageType, for fix: Fix) -> UBXFrame? {
    guard navigationMessages.contains(type) else { return nil }
    return frame(type, of: Self.solution(for: fix))
  }

  /// The NAV message `type` of `solution`, or nil for one that is not a NAV message this
  /// emulator builds; the caller checks that the chip has it (`navigationMessages`).
  func frame(_ type: UBXMessageType, of solution: UBXNavigationSolution) -> UBXFrame? {
    switch type {
    case .navPVT: return solution.navPVT
    case .navPOSECEF: return solution.navPOSECEF
    case .navPOSLLH: return solution.navPOSLLH
    case .navHPPOSLLH: return solution.navHPPOSLLH
    case .navSTATUS:
      return solution.navSTATUS(
        timeToFirstFixMilliseconds: timeToFirstFixMilliseconds,
        millisecondsSinceStartup: solution.timeOfWeekMilliseconds)
    case .navDOP: return solution.navDOP
    case .navSOL: return solution.navSOL
    case .navVELECEF: return solution.navVELECEF
    case .navVELNED: return solution.navVELNED
    case .navTIMEGPS: return solution.navTIMEGPS
    case .navTIMEUTC: return solution.navTIMEUTC
    case .navCLOCK:
      return solution.navCLOCK(
        biasNanoseconds: Self.clockBiasNanoseconds(
          nanosecondsOfWeek: solution.nanosecondsOfWeek),
        driftNanosecondsPerSecond: Int32(Self.clockDriftNanosecondsPerSecond))
    case .navSAT: return solution.navSAT
    case .navSVINFO: return solution.navSVINFO
    case .navSIG: return solution.navSIG(signalIDs: signalIDs)
    case .navORB: return solution.navORB
    case .navRELPOSNED: return solution.navRELPOSNED
    case .navSVIN: return solution.navSVIN
    case .navEOE: return solution.navEOE
    default: return nil
    }
  }

  /// NAV-STATUS's `ttff`: the cold-start time to first fix of the chip's data sheet (NEO-M8N
  /// 26 s, ZED-F9P 24 s). The emulated chip counts as started at the start of the GPS week,
  /// so `msss` is the time of week.
  var timeToFirstFixMilliseconds: UInt32 {
    profile.commandSet == .ubloxF9 ? 24_000 : 26_000
  }

  /// The receiver's clock, the one RXM-RAWX's measurements carry: a TCXO 0.3 ppm off its
  /// nominal frequency, stepped back by 1 ms whenever its bias passes +0.5 ms, as u-blox chips
  /// keep their clock within a millisecond of GPS time.
  static let receiverClock = ReceiverClockModel()

  /// The drift of the receiver's clock, ns/s.
  static var clockDriftNanosecondsPerSecond: Int { receiverClock.driftNanosecondsPerSecond }

  /// The receiver clock's bias at the whole second of a time of week, nanoseconds.
  static func clockBiasNanoseconds(nanosecondsOfWeek: Int64) -> Int32 {
    let seconds = Double(nanosecondsOfWeek / 1_000_000_000)
    return Int32((receiverClock.biasSeconds(atSecondsOfWeek: seconds) * 1e9).rounded())
  }
}
