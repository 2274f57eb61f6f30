import Glibc
import RouteFiles

/// A log file read in chunks of 64 KiB, from its start or again from any position: the reader
/// holds one chunk at a time, whatever the file's size.
final class LogFileStream {
  /// The size of a chunk.
  static let chunkSize = 65_536

  let path: String
  private let descriptor: Int32
  private var buffer: [UInt8]

  /// Opens a regular file. A FIFO with no writer, a terminal or a directory is refused at once
  /// instead of hanging.
  ///
  /// - Throws: `.unreadable` (exit 66) naming the file and the system's reason.
  init(path: String) throws(InputFileError) {
    self.path = path
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { throw Self.systemError(path) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = Self.systemError(path)
      close(descriptor)
      throw error
    }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
      close(descriptor)
      let what = type == S_IFDIR ? "a directory" : "not a regular file"
      throw .unreadable(path: path, reason: "is \(what); expected a log to replay")
    }
    self.descriptor = descriptor
    buffer = [UInt8](repeating: 0, count: Self.chunkSize)
  }

  deinit { close(descriptor) }

  /// The next chunk, or nil at the end of the file.
  ///
  /// - Throws: `.unreadable` when the read fails.
  func read() throws(InputFileError) -> ArraySlice<UInt8>? {
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 { return buffer[..<count] }
      if count == 0 { return nil }
      guard errno == EINTR else { throw Self.systemError(path) }
    }
  }

  /// Goes to byte `offset` of the file: the next `read()` starts there.
  ///
  /// - Throws: `.unreadable` when the file cannot be sought.
  func seek(to offset: Int) throws(InputFileError) {
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw Self.systemError(path) }
  }

  private static func systemError(_ path: String) -> InputFileError {
    .unreadable(path: path, reason: String(cString: strerror(errno)))
  }
}
