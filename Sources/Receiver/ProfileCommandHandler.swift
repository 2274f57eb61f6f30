/// The command handler of a profile's chip.
///
/// PLACEHOLDER (issue 8 contract): answers nothing yet; the command helper replaces this file
/// with the u-blox and MediaTek handlers.
extension ReceiverProfile {
  /// A new handler in the chip's power-up state.
  public func makeCommandHandler() -> any ReceiverCommandHandler {
    SilentCommandHandler()
  }
}

/// Answers nothing: a chip that ignores whatever a client writes.
public struct SilentCommandHandler: ReceiverCommandHandler {
  /// Creates the handler.
  public init() {}

  public func handle(_ message: ClientMessage) -> [ReceiverEffect] { [] }
}
