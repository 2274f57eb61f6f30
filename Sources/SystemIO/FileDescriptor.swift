import Glibc

/// An open file descriptor. Closing is explicit, as in swift-system.
public struct FileDescriptor: Hashable, Sendable {
  /// The C descriptor.
  public let rawValue: Int32

  /// Wraps a descriptor.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Opens a file.
  ///
  /// The corresponding C function is `open(2)`.
  public static func open(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(
      rawValue: try systemCall("open", path: path) { Glibc.open(path, flags | O_CLOEXEC) })
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
    try transfer("read") {
      buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
    }
  }

  /// Writes bytes once; may write fewer than given.
  ///
  /// The corresponding C function is `write(2)`.
  public func write(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> TransferResult {
    try transfer("write") {
      bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
    }
  }

  /// Runs a read or write, mapping EAGAIN to `wouldBlock`.
  private func transfer(_ operation: String, _ body: () -> Int) throws(SystemError)
    -> TransferResult
  {
    do {
      return .transferred(try systemCall(operation, body))
    } catch  where error.errno == EAGAIN {
      return .wouldBlock
    }
  }

  /// Makes reads and writes return `wouldBlock` instead of waiting.
  ///
  /// The corresponding C function is `fcntl(2)` with `F_SETFL`.
  public func setNonBlocking() throws(SystemError) {
    let flags = try systemCall("get descriptor flags") { fcntl(rawValue, F_GETFL) }
    try systemCall("set descriptor flags") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Bytes waiting to be read.
  ///
  /// The corresponding C function is `ioctl(2)` with `FIONREAD`.
  public func availableBytes() throws(SystemError) -> Int {
    var count: Int32 = 0
    try systemCall("count pending bytes") { ioctl(rawValue, UInt(FIONREAD), &count) }
    return Int(count)
  }

  /// Closes the descriptor.
  ///
  /// The corresponding C function is `close(2)`; it is not retried on EINTR, as on Linux the
  /// descriptor is released anyway.
  public func close() {
    _ = Glibc.close(rawValue)
  }
}

/// A pipe used to wake a thread blocked in `poll`.
public struct WakePipe: Sendable {
  public let readEnd: FileDescriptor
  public let writeEnd: FileDescriptor

  /// Creates a non-blocking pipe.
  public init() throws(SystemError) {
    var ends: [Int32] = [-1, -1]
    try systemCall("create pipe") { pipe(&ends) }
    readEnd = FileDescriptor(rawValue: ends[0])
    writeEnd = FileDescriptor(rawValue: ends[1])
    try readEnd.setNonBlocking()
    try writeEnd.setNonBlocking()
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
  }

  /// Wakes the reader.
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

  /// Closes both ends.
  public func close() {
    readEnd.close()
    writeEnd.close()
  }
}
