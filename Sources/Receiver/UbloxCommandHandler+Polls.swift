import UBX

/// Polls of the classes other than CFG: an empty payload asks for the message, which the chip
/// sends without an acknowledgement; anything else gets no answer, as on the chip.
///
/// A NAV message reports the last epoch the chip computed, which the emulator holds
/// (`ReceiverEffect.replyFromEpoch`); a MON message comes from the handler's own state.
extension UbloxCommandHandler {
  /// The MON messages this chip answers (`UbloxMonitor.messages(firmware:)`).
  var monitorMessages: [UBXMessageType] { UbloxMonitor.messages(firmware: firmware) }

  /// Answers one message of a class other than CFG.
  func poll(_ frame: UBXFrame) -> [ReceiverEffect] {
    guard frame.payload.isEmpty else { return [] }
    let type = frame.messageType
    if navigation.navigationMessages.contains(type) { return [.replyFromEpoch(type)] }
    return monitorFrame(type).map { [.reply($0.bytes)] } ?? []
  }

  /// The MON message `type` as the chip reports it now, or nil for one it does not have.
  func monitorFrame(_ type: UBXMessageType) -> UBXFrame? {
    monitor.frame(type, firmware: firmware)
  }

  /// The chip's NAV encoder, which knows which NAV messages it has.
  var navigation: UBXNavigationEncoder { UBXNavigationEncoder(profile: profile) }
}
