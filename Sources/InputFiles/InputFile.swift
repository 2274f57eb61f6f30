import Glibc

/// The one reader of mockgps's input files (routes, scenarios, almanacs, configs, logs to
/// replay): a regular file opened without blocking, read whole up to a cap, in chunks from its
/// position, or at any offset, every read retried on `EINTR`, every failure an
/// `InputFileError` naming the file.
///
/// The descriptor is closed when the reader goes.
package final class InputFile {
  /// The file as the person named it, for messages.
  package let path: String
  /// The open descriptor, for a library that reads by itself (libxml2).
  package let descriptor: Int32
  /// The size of the file when it was opened, bytes.
  package let size: Int
  /// The most bytes read from the file, and the error for a read past them (`tooLarge`'s,
  /// given the file's size), when its reader caps it: every read checks it, so a file that grows
  /// while it is read is refused as one that was too large when opened.
  package var limit: (bytes: Int, refusal: (_ size: Int) -> InputFileError)?

  /// Opens `path` for reading, without blocking: a FIFO with no writer, a terminal or a socket
  /// is refused at once instead of hanging, as is a directory. `kind` names what was expected
  /// (`a route file`).
  ///
  /// - Throws: `.unreadable` with the system's reason or what the path is instead (exit 66).
  package convenience init(path: String, expecting kind: String) throws(InputFileError) {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { throw Self.systemError(path) }
    try self.init(owning: descriptor, path: path, expecting: kind)
  }

  /// Reads a file the caller opened (with someone else's rights, say) as `path`, through a
  /// duplicate of `descriptor`, which stays the caller's to close.
  ///
  /// - Throws: as `init(path:expecting:)`.
  package convenience init(duplicating descriptor: Int32, path: String, expecting kind: String)
    throws(InputFileError)
  {
    let duplicate = dup(descriptor)
    guard duplicate >= 0 else { throw Self.systemError(path) }
    try self.init(owning: duplicate, path: path, expecting: kind)
  }

  /// Takes `descriptor`, opened for `path`, if it is a regular file; anything else is closed
  /// and refused.
  private init(owning descriptor: Int32, path: String, expecting kind: String)
    throws(InputFileError)
  {
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
      throw .unreadable(path: path, reason: "is \(what); expected \(kind)")
    }
    self.path = path
    self.descriptor = descriptor
    size = Int(status.st_size)
  }

  deinit { close(descriptor) }

  /// The whole file, if it holds at most `limit` bytes (checked before reading and again while
  /// reading, for a file that grows).
  ///
  /// - Parameters:
  ///   - kind: What the file is, as the diagnostic names it (`scenario file`).
  ///   - advice: What to do instead, appended to the diagnostic after a semicolon.
  /// - Throws: `.invalid` with `tooLarge`'s diagnostic, or `.unreadable` when a read fails.
  package func readAll(limit: Int, kind: String, advice: String? = nil) throws(InputFileError)
    -> [UInt8]
  {
    let refusal = InputFileError.tooLarge(path, kind: kind, limit: limit, advice: advice)
    guard size <= limit else { throw refusal(size) }
    let bytes = try self.bytes(at: 0, count: limit + 1)
    guard bytes.count <= limit else { throw refusal(bytes.count) }
    return bytes
  }

  /// Up to `count` bytes at `offset` (fewer at the end of the file), without moving the
  /// position `read(into:)` reads from.
  ///
  /// - Throws: `.unreadable` when a read fails; `limit`'s refusal for bytes past it.
  package func bytes(at offset: Int, count: Int) throws(InputFileError) -> [UInt8] {
    let buffer = try unlimitedBytes(at: offset, count: count)
    try checkLimit(end: offset + buffer.count)
    return buffer
  }

  /// Throws `limit`'s refusal when a read reached byte `end`, past it.
  private func checkLimit(end: Int) throws(InputFileError) {
    guard let limit, end > limit.bytes else { return }
    var status = stat()
    let current = fstat(descriptor, &status) == 0 ? Int(status.st_size) : end
    throw limit.refusal(max(current, end))
  }

  /// Up to `count` bytes at `offset`, whatever `limit` says.
  private func unlimitedBytes(at offset: Int, count: Int) throws(InputFileError) -> [UInt8] {
    var buffer: [UInt8] = []
    // Grown as the file gives bytes: a cap far above the file's size allocates nothing more.
    // Each piece is read into uninitialized storage: zeroing it first, through the generic
    // `repeatElement`, took a quarter of a debug build's GeoJSON reading.
    let chunk = 64 * 1024
    while buffer.count < count {
      let wanted = min(chunk, count - buffer.count)
      let start = buffer.count
      let piece = try retrying { () -> Int in
        var result = 0
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { storage, initialized in
          result = pread(descriptor, storage.baseAddress, wanted, off_t(offset + start))
          failure = errno
          initialized = max(result, 0)
        }
        if result > 0 { buffer += bytes }
        errno = failure
        return result
      }
      if piece == 0 { break }
    }
    return buffer
  }

  /// Reads the next bytes from the file's position into `buffer`; 0 at the end of the file.
  ///
  /// - Throws: `.unreadable` when the read fails; `limit`'s refusal for bytes past it.
  package func read(into buffer: inout [UInt8]) throws(InputFileError) -> Int {
    let count = try retrying {
      buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    }
    if limit != nil { try checkLimit(end: Int(lseek(descriptor, 0, SEEK_CUR))) }
    return count
  }

  /// Moves the position `read(into:)` reads from to byte `offset`.
  ///
  /// - Throws: `.unreadable` when the file cannot be sought.
  package func seek(to offset: Int) throws(InputFileError) {
    guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw Self.systemError(path) }
  }

  /// The count a read call returned, called again while it is interrupted.
  private func retrying(_ call: () -> Int) throws(InputFileError) -> Int {
    while true {
      let count = call()
      if count >= 0 { return count }
      guard errno == EINTR else { throw Self.systemError(path) }
    }
  }

  /// The reason the last system call failed, for `path`.
  private static func systemError(_ path: String) -> InputFileError {
    .unreadable(path: path, reason: String(cString: strerror(errno)))
  }
}
