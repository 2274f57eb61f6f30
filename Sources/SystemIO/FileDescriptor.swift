import CSystemShims
import Glibc

/// An open file descriptor that this program owns: it closes exactly once, when consumed by
/// `close()` or when the value ends.
///
/// The type cannot be copied, so two owners can never close the same number, and a number the
/// kernel has handed to someone else since cannot be closed by mistake.
public struct FileDescriptor: ~Copyable, Sendable {
  /// The C descriptor, for calls that take it; valid while this value lives.
  public let rawValue: Int32

  /// Takes ownership of an open descriptor.
  public init(owning rawValue: Int32) {
    self.rawValue = rawValue
  }

  deinit {
    _ = Glibc.close(rawValue)
  }

  /// Opens a file, close-on-exec.
  ///
  /// The corresponding C function is `open(2)`.
  public static func open(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(
      owning: try systemCall("open", path: path) { Glibc.open(path, flags | O_CLOEXEC) })
  }

  /// A new descriptor, close-on-exec, for the open file that `rawValue` (borrowed, left open)
  /// refers to: a second registration of one file with epoll, which takes each descriptor once.
  ///
  /// The corresponding C function is `fcntl(2)` with `F_DUPFD_CLOEXEC`.
  public static func duplicate(_ rawValue: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(owning: try systemCall("duplicate") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
  }

  /// What a non-blocking read or write did.
  public enum TransferResult: Hashable, Sendable {
    /// This many bytes moved (0 on end of file for a read).
    case transferred(Int)
    /// Nothing could move now (EAGAIN).
    case wouldBlock
  }

  /// Reads up to `buffer.count` bytes.
  ///
  /// The corresponding C function is `read(2)`.
  public func read(into buffer: inout [UInt8]) throws(SystemError) -> TransferResult {
    let descriptor = rawValue
    return try transfer("read") {
      buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    }
  }

  /// Reads up to `buffer.count` bytes into memory that need not be initialized.
  ///
  /// The corresponding C function is `read(2)`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
    -> TransferResult
  {
    let descriptor = rawValue
    return try transfer("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
  }

  /// Writes bytes once; may write fewer than given.
  ///
  /// The corresponding C function is `write(2)`.
  public func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> TransferResult {
    let descriptor = rawValue
    return try transfer("write") {
      bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
  }

  /// Makes reads and writes return `wouldBlock` instead of waiting.
  ///
  /// The corresponding C function is `fcntl(2)` with `F_SETFL`.
  public func setNonBlocking() throws(SystemError) {
    let descriptor = rawValue
    let flags = try systemCall("get descriptor flags") { fcntl(descriptor, F_GETFL) }
    try systemCall("set descriptor flags") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Bytes waiting to be read.
  ///
  /// The corresponding C function is `ioctl(2)` with `FIONREAD`.
  public func availableBytes() throws(SystemError) -> Int {
    var count: Int32 = 0
    let descriptor = rawValue
    try systemCall("count pending bytes") { ioctl(descriptor, UInt(FIONREAD), &count) }
    return Int(count)
  }

  /// What `poll` should watch this descriptor for.
  public func pollRequest(_ events: Poll.Events) -> Poll.Request {
    Poll.Request(rawDescriptor: rawValue, events: events)
  }

  /// Closes the descriptor now.
  ///
  /// The corresponding C function is `close(2)`; it is not retried on EINTR, as on Linux the
  /// descriptor is released anyway.
  public consuming func close() {
    let descriptor = rawValue
    discard self
    _ = Glibc.close(descriptor)
  }
}

/// Runs a read or write, mapping EAGAIN to `wouldBlock`.
private func transfer(_ operation: String, _ body: () -> Int) throws(SystemError)
  -> FileDescriptor.TransferResult
{
  do {
    return .transferred(try systemCall(operation, body))
  } catch  where error.errno == EAGAIN {
    return .wouldBlock
  }
}

/// A pipe used to wake a thread blocked in `poll`: both ends non-blocking and close-on-exec
/// from the moment they exist.
public struct WakePipe: ~Copyable, Sendable {
  public let readEnd: FileDescriptor
  public let writeEnd: FileDescriptor

  /// Creates the pipe.
  ///
  /// The corresponding C function is `pipe2(2)` with `O_CLOEXEC | O_NONBLOCK`.
  public init() throws(SystemError) {
    var ends: [Int32] = [-1, -1]
    try systemCall("create pipe") { mockgps_pipe_cloexec_nonblock(&ends) }
    readEnd = FileDescriptor(owning: ends[0])
    writeEnd = FileDescriptor(owning: ends[1])
  }

  /// Wakes the reader; a full pipe already means "wake up".
  public func wake() {
    _ = try? writeEnd.write([1][...])
  }

  /// Empties the pipe after a wake-up.
  public func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while case .transferred(let count) = (try? readEnd.read(into: &buffer)) ?? .wouldBlock,
      count > 0
    {}
  }
}
