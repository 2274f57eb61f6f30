import UBX

/// Polls of the classes other than CFG: an empty payload asks for the message, which the chip
/// sends without an acknowledgement; anything else gets no answer, as on the chip.
extension UbloxCommandHandler {
  /// Answers one message of a class other than CFG.
  func poll(_ frame: UBXFrame) -> [ReceiverEffect] {
    switch frame.messageType {
    case .monVER: return frame.payload.isEmpty ? [.reply(firmware.version.frame.bytes)] : []
    default: return []
    }
  }
}
