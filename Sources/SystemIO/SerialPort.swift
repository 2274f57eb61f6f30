import Glibc

/// A real serial port (a USB GNSS receiver's `/dev/ttyACM0`), open in raw 8N1 and
/// non-blocking: reads and writes never wait, `descriptor` tells `poll` when to try.
public struct SerialPort: ~Copyable, Sendable {
  /// Why a port could not be opened.
  public enum OpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing at the path (ENOENT).
    case missing(String)
    /// The path is not a terminal (a regular file, `/dev/null`).
    case notATerminal(String)
    /// Opening or setting up the port failed otherwise (permissions, a busy device…).
    case system(SystemError)

    public var description: String {
      switch self {
      case .missing(let path): return "'\(path)' does not exist"
      case .notATerminal(let path): return "'\(path)' is not a terminal"
      case .system(let error): return error.description
      }
    }
  }

  /// The path it was opened by.
  public let path: String
  /// The open port.
  public let descriptor: FileDescriptor

  /// Opens `path` and sets it to raw 8N1 at `baud` (receiver on, modem lines ignored), then
  /// discards what was waiting.
  ///
  /// The corresponding C functions are `open(2)` with `O_RDWR | O_NOCTTY | O_NONBLOCK`,
  /// `isatty(3)`, `tcsetattr(3)` and `tcflush(3)`.
  public static func open(_ path: String, baud: Int) throws(OpenError) -> SerialPort {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK)
    } catch {
      throw error.errno == ENOENT ? .missing(path) : .system(error)
    }
    guard isatty(descriptor.rawValue) == 1 else { throw .notATerminal(path) }
    let port = SerialPort(path: path, descriptor: descriptor)
    do {
      var settings = try TerminalAttributes.read(from: port.descriptor)
      settings.makeRaw()
      settings.setSpeed(baud: baud)
      try settings.apply(to: port.descriptor)
    } catch  where error.errno == ENOTTY {
      throw .notATerminal(path)
    } catch {
      throw .system(SystemError(error.operation, path: path, errno: error.errno))
    }
    port.discardInput()
    return port
  }

  private init(path: String, descriptor: consuming FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  /// The port's speed, or nil for a rate that is not a standard baud.
  public func baud() throws(SystemError) -> Int? {
    try TerminalAttributes.read(from: descriptor).baud
  }

  /// Switches the port to `newBaud` (a standard rate; others are ignored). With
  /// `discardingInput`, what was received at the old rate is discarded (a hunt for the rate
  /// does; a client's change of speed does not, as a UART keeps what it had received).
  public func setBaud(_ newBaud: Int, discardingInput: Bool = false) throws(SystemError) {
    var settings = try TerminalAttributes.read(from: descriptor)
    settings.setSpeed(baud: newBaud)
    try settings.apply(to: descriptor)
    if discardingInput { discardInput() }
  }

  /// Reads what is there, without waiting: `.transferred(0)` means the line hung up.
  ///
  /// - Throws: `SystemError`, EIO once the device is gone.
  public func read(into buffer: inout [UInt8]) throws(SystemError) -> FileDescriptor.TransferResult
  {
    try descriptor.read(into: &buffer)
  }

  /// Writes what the output queue takes now; may write fewer bytes than given.
  public func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> FileDescriptor.TransferResult
  {
    try descriptor.write(bytes)
  }

  /// What `poll` should watch the port for.
  public func pollRequest(_ events: Poll.Events) -> Poll.Request {
    descriptor.pollRequest(events)
  }

  /// Discards bytes received and not read yet.
  ///
  /// The corresponding C function is `tcflush(3)` with `TCIFLUSH`.
  public func discardInput() {
    tcflush(descriptor.rawValue, TCIFLUSH)
  }
}
