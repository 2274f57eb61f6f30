/// Splits bytes into lines as they are read, holding at most one line and one chunk.
package struct LineReader {
  /// The longest line read, without its line end; a longer one is an error.
  package static let maximumLineLength = 64 * 1024
  private static let chunkLength = 64 * 1024

  /// Why no more lines can be read.
  package enum Failure: Error {
    /// A line, numbered from 1, is longer than `maximumLineLength`.
    case lineTooLong(line: Int)
    /// The source could not be read.
    case unreadable(InputFileError)
  }

  private let source: ByteSource
  private var offset = 0
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The number of the line last returned, from 1.
  package private(set) var lineNumber = 0

  /// A reader of the lines of `source`, from its start.
  package init(_ source: ByteSource) {
    self.source = source
  }

  /// The next line without its `\n` or `\r\n`, or nil at the end.
  package mutating func next() throws(Failure) -> ArraySlice<UInt8>? {
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
