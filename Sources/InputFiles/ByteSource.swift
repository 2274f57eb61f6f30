/// Where a reader takes its bytes from: an open file, read in chunks, or bytes in memory.
package enum ByteSource {
  /// A file, read through the one bounded reader.
  case file(InputFile)
  /// Bytes already in memory.
  case memory([UInt8])

  /// Reads up to `count` bytes at `offset`, without moving a file's position.
  ///
  /// - Throws: `.unreadable` when a read of the file fails.
  package func bytes(at offset: Int, count: Int) throws(InputFileError) -> [UInt8] {
    switch self {
    case .memory(let bytes):
      guard offset < bytes.count else { return [] }
      return Array(bytes[offset..<min(bytes.count, offset + count)])
    case .file(let file):
      return try file.bytes(at: offset, count: count)
    }
  }
}
