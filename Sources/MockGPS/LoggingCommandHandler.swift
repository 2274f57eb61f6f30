import Receiver

/// The default command handler: notes each command at debug level and answers nothing.
public struct LoggingCommandHandler: ReceiverCommandHandler {
  let log: Log

  /// Creates a handler that writes to `log`.
  public init(log: Log) {
    self.log = log
  }

  public func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    log.debug("client sent \(message)")
    return []
  }
}
