import Receiver

/// The default command handler: notes each command at debug level and answers nothing.
public struct LoggingCommandHandler: ReceiverCommandHandler {
  let log: Log

  /// Creates a handler that writes to `log`.
  public init(log: Log) {
    self.log = log
  }

  public func handle(command: String) -> [UInt8] {
    log.debug("client sent \(command)")
    return []
  }
}
