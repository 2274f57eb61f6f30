import DeviceTerminal
import Receiver

/// A chip whose non-volatile memory is kept in a state file: after each command that wrote its
/// flash or battery-backed RAM, the whole memory goes to the file (queued, see `ChipStateFile`).
struct PersistingCommandHandler<Chip: StatefulCommandHandler>: ReceiverCommandHandler {
  private var chip: Chip
  let file: ChipStateFile

  /// Creates a handler that answers as `chip` does and saves its memory to `file`.
  init(chip: Chip, file: ChipStateFile) {
    self.chip = chip
    self.file = file
  }

  mutating func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    let writes = chip.nonVolatileWrites
    let effects = chip.handle(message)
    if chip.nonVolatileWrites != writes { file.save(chip.nonVolatileState) }
    return effects
  }

  mutating func takeInputFaults() -> [UBXInputFault] { chip.takeInputFaults() }

  mutating func takeRefusedItems() -> [ChipStateError] { chip.takeRefusedItems() }

  var powerUpEffects: [ReceiverEffect] { chip.powerUpEffects }

  mutating func noteLineTraffic(receivedBytes: Int, skippedBytes: Int, sentBytes: Int) {
    chip.noteLineTraffic(
      receivedBytes: receivedBytes, skippedBytes: skippedBytes, sentBytes: sentBytes)
  }
}
