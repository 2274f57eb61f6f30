import UBX

/// Polls of the classes other than CFG: an empty payload asks for the message, which the chip
/// sends without an acknowledgement; anything else gets no answer, as on the chip.
///
/// A NAV message reports the last epoch the chip computed, which the emulator holds
/// (`ReceiverEffect.replyFromEpoch`); a MON message comes from the handler's own state.
extension UbloxCommandHandler {
  /// The MON messages each chip answers: u-blox 8 has MON-HW2, u-blox 9 MON-RF and MON-COMMS.
  var monitorMessages: [UBXMessageType] {
    firmware.hasConfigurationDatabase
      ? [.monVER, .monHW, .monRF, .monGNSS, .monCOMMS, .monRXBUF, .monTXBUF, .monMSGPP]
      : [.monVER, .monHW, .monHW2, .monGNSS, .monRXBUF, .monTXBUF, .monMSGPP]
  }

  /// Answers one message of a class other than CFG.
  func poll(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard frame.payload.isEmpty else { return [] }
    let type = frame.messageType
    if navigation.navigationMessages.contains(type) { return [.replyFromEpoch(type)] }
    return monitorFrame(type).map { [.reply($0.bytes)] } ?? []
  }

  /// The MON message `type` as the chip reports it now, or nil for one it does not have.
  func monitorFrame(_ type: UBXMessageType) -> UBXFrame? {
    guard monitorMessages.contains(type) else { return nil }
    switch type {
    case .monVER: return firmware.version.frame
    case .monHW: return monitor.radio.monHW
    case .monHW2: return monitor.radio.monHW2
    case .monRF: return monitor.radio.monRF
    case .monGNSS: return monitor.gnss.frame
    case .monCOMMS: return monitor.traffic.monCOMMS
    case .monRXBUF: return monitor.traffic.monRXBUF
    case .monTXBUF: return monitor.traffic.monTXBUF
    case .monMSGPP: return monitor.traffic.monMSGPP
    default: return nil
    }
  }

  /// The chip's NAV encoder, which knows which NAV messages it has.
  var navigation: UBXNavigationEncoder { UBXNavigationEncoder(profile: profile) }
}
