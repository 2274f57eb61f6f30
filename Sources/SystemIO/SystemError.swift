import Glibc

/// A failed system call: what was attempted, on which path, and the errno it gave.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was attempted, as a verb phrase: `open`, `create link`.
  public var operation: String
  /// The file it was attempted on, if any.
  public var path: String?
  /// The C error number.
  public var errno: Int32

  /// Creates an error.
  public init(_ operation: String, path: String? = nil, errno: Int32) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  /// The system's text for the error number: `Permission denied`.
  public var message: String { String(cString: strerror(errno)) }

  /// `cannot open '/dev/ttyUSB0': Permission denied`.
  public var description: String {
    "cannot \(operation)\(path.map { " '\($0)'" } ?? ""): \(message)"
  }
}

/// Runs a system call, retrying while it fails with EINTR, and returns its result.
///
/// EBADF and EFAULT mean a bug in this program, not a condition of the world, so they trap.
@discardableResult
func systemCall<Result: FixedWidthInteger>(
  _ operation: String, path: String? = nil, retryOnInterrupt: Bool = true,
  _ body: () -> Result
) throws(SystemError) -> Result {
  while true {
    let result = body()
    if result != -1 { return result }
    let error = Glibc.errno
    if error == EINTR && retryOnInterrupt { continue }
    precondition(error != EBADF && error != EFAULT, "\(operation): bad descriptor or address")
    throw SystemError(operation, path: path, errno: error)
  }
}
