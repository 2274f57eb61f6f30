import Glibc

/// Where a reader takes its bytes from: an open file, read in chunks, or bytes in memory.
enum ByteSource {
  case file(descriptor: Int32, path: String)
  case memory([UInt8])

  /// Reads up to `count` bytes at `offset`, without moving a file's position.
  func bytes(at offset: Int, count: Int) throws(InputFileError) -> [UInt8] {
    switch self {
    case .memory(let bytes):
      guard offset < bytes.count else { return [] }
      return Array(bytes[offset..<min(bytes.count, offset + count)])
    case .file(let descriptor, let path):
      var buffer = [UInt8](repeating: 0, count: count)
      var filled = 0
      while filled < count {
        let got = buffer.withUnsafeMutableBytes { bytes -> Int in
          guard let base = bytes.baseAddress else { return 0 }
          return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
        }
        if got < 0, errno == EINTR { continue }
        guard got >= 0 else { throw InputFileOpening.systemError(path) }
        if got == 0 { break }
        filled += got
      }
      buffer.removeSubrange(filled...)
      return buffer
    }
  }
}

/// Splits bytes into lines as they are read, holding at most one line and one chunk.
struct LineReader {
  /// The longest line read, without its line end; a longer one is an error.
  static let maximumLineLength = 64 * 1024
  private static let chunkLength = 64 * 1024

  /// Why no more lines can be read.
  enum Failure: Error {
    case lineTooLong(line: Int)
    case unreadable(InputFileError)
  }

  private let source: ByteSource
  private var offset = 0
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The number of the line last returned, from 1.
  private(set) var lineNumber = 0

  init(_ source: ByteSource) {
    self.source = source
  }

  /// The next line without its `\n` or `\r\n`, or nil at the end.
  mutating func next() throws(Failure) -> ArraySlice<UInt8>? {
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        return take(upTo: newline, skipping: 1)
      }
      guard buffer.count - start <= Self.maximumLineLength else {
        throw .lineTooLong(line: lineNumber + 1)
      }
      if atEnd {
        return start < buffer.count ? take(upTo: buffer.count, skipping: 0) : nil
      }
      searched = buffer.count
      buffer.removeSubrange(..<start)
      searched -= start
      start = 0
      let chunk: [UInt8]
      do { chunk = try source.bytes(at: offset, count: Self.chunkLength) } catch {
        throw .unreadable(error)
      }
      offset += chunk.count
      atEnd = chunk.isEmpty
      buffer += chunk
    }
  }

  private mutating func take(upTo end: Int, skipping: Int) -> ArraySlice<UInt8> {
    var line = buffer[start..<end]
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    start = end + skipping
    lineNumber += 1
    return line
  }
}
