import InputFiles

/// A log file read in chunks of 64 KiB, from its start or again from any position: the reader
/// holds one chunk at a time, whatever the file's size.
final class LogFileStream {
  /// The size of a chunk.
  static let chunkSize = 65_536

  /// The file, through the one bounded reader of input files.
  private let file: InputFile
  /// The chunk last read.
  private var buffer: [UInt8]

  /// The file as the person named it.
  var path: String { file.path }

  /// Opens a regular file. A FIFO with no writer, a terminal or a directory is refused at once
  /// instead of hanging.
  ///
  /// - Throws: `.unreadable` (exit 66) naming the file and the system's reason.
  init(path: String) throws(InputFileError) {
    file = try InputFile(path: path, expecting: "a log to replay")
    buffer = [UInt8](repeating: 0, count: Self.chunkSize)
  }

  /// The next chunk, or nil at the end of the file.
  ///
  /// - Throws: `.unreadable` when the read fails.
  func read() throws(InputFileError) -> ArraySlice<UInt8>? {
    let count = try file.read(into: &buffer)
    return count > 0 ? buffer[..<count] : nil
  }

  /// Goes to byte `offset` of the file: the next `read()` starts there.
  ///
  /// - Throws: `.unreadable` when the file cannot be sought.
  func seek(to offset: Int) throws(InputFileError) {
    try file.seek(to: offset)
  }
}
