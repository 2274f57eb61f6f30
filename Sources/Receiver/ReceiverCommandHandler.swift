/// What a receiver does with a sentence a client wrote to it (a probe, a configuration command).
///
/// Receiver profiles answer the commands their chip answers; the default only notes them.
public protocol ReceiverCommandHandler: Sendable {
  /// Handles one sentence, given without line ending, and returns the bytes to send back.
  func handle(command: String) -> [UInt8]
}
