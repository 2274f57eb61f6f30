/// What a receiver does with a message a client wrote to it (a probe, a configuration command).
///
/// Receiver profiles answer the commands their chip answers; the default only notes them. A
/// handler may keep state (a chip's current settings), so the emulator keeps one per device
/// and calls it for each message in order.
public protocol ReceiverCommandHandler: Sendable {
  /// Handles one message a client wrote; returns what the emulator must do.
  mutating func handle(_ message: ClientMessage) -> [ReceiverEffect]

  /// The UBX frames refused for their form (a wrong length) since the last call, oldest
  /// first, for the device's counters and log; none by default.
  mutating func takeInputFaults() -> [UBXInputFault]

  /// The stored items the last power-up left out (from a state file, or a reset or CFG-CFG
  /// load from the chip's own layers), each for a value the chip does not take, for the log;
  /// none by default.
  mutating func takeRefusedItems() -> [ChipStateError]

  /// What the device has carried on the line so far, for the chip's port counters: bytes
  /// clients wrote, those of them that were part of no message, and bytes sent; ignored by
  /// default.
  mutating func noteLineTraffic(receivedBytes: Int, skippedBytes: Int, sentBytes: Int)

  /// What the chip's configuration makes of the emulator now, as the effects a change to it
  /// gives: applied at power-up, so that the first epoch already follows the chip's factory or
  /// saved settings (the sky it tracks, as the F9P's default SBAS scan mask has it; its rover's
  /// settings); none, by default, where the profile's sky stands.
  var powerUpEffects: [ReceiverEffect] { get }
}

extension ReceiverCommandHandler {
  public mutating func takeInputFaults() -> [UBXInputFault] { [] }
  public mutating func takeRefusedItems() -> [ChipStateError] { [] }
  public mutating func noteLineTraffic(receivedBytes: Int, skippedBytes: Int, sentBytes: Int) {}
  public var powerUpEffects: [ReceiverEffect] { [] }
}
