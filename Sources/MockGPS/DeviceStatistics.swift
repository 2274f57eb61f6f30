/// Counters of what happened on the emulated device.
public struct DeviceStatistics: Hashable, Sendable {
  /// Epochs written to a client in full.
  public var epochsSent = 0
  /// Epochs left out because no client had the device open.
  public var epochsWithoutClient = 0
  /// Epochs dropped whole because the client had not read the earlier ones (a UART overrun).
  public var epochsOverrun = 0
  /// Epochs skipped because the emulator woke too late for them.
  public var epochsLate = 0
  /// Times a client opened the device.
  public var clientOpens = 0
  /// Sentences clients wrote that were handed to the command handler.
  public var commandsReceived = 0
  /// The emulator's own sentences that came back as echo and were ignored.
  public var echoesIgnored = 0
  /// Bytes written to the device.
  public var bytesSent = 0
  /// Times the I/O thread woke up: it sleeps while no client opens, closes or writes.
  public var ioWakeups = 0

  /// Creates zeroed counters.
  public init() {}
}
