import Glibc
import InputFiles
import Testing

/// The one bounded reader of input files: regular files only, whole up to a cap with one
/// diagnostic, at an offset, or in chunks from a position.
@Suite struct InputFileTests {
  /// A file holding `bytes` in a fresh folder, removed with it.
  static func withFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
    var template = Array("/tmp/inputfile-XXXXXX".utf8CString)
    let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
    defer { rmdir(folder) }
    let path = folder + "/f"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    close(descriptor)
    defer { unlink(path) }
    try body(path)
  }

  @Test func aFileIsReadWholeUpToItsCapAndRefusedAboveIt() throws {
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
    try Self.withFile(bytes) { path in
      let file = try InputFile(path: path, expecting: "a test file")
      #expect(file.size == bytes.count)
      #expect(try file.readAll(limit: bytes.count, kind: "test file") == bytes)
      #expect(throws: InputFileError.tooLarge(path, kind: "test file", limit: 1000)(200_000)) {
        try file.readAll(limit: 1000, kind: "test file")
      }
      let refusal = InputFileError.tooLarge(path, kind: "test file", limit: 10, advice: "cut it")
      #expect(
        refusal(11).description
          == "\(path): test file of 11 bytes: at most 10 bytes are read; cut it")
      #expect(refusal(11).exitCode == 65)
    }
  }

  @Test func bytesAtAnOffsetLeaveThePositionAlone() throws {
    let bytes = Array("0123456789".utf8)
    try Self.withFile(bytes) { path in
      let file = try InputFile(path: path, expecting: "a test file")
      #expect(try file.bytes(at: 3, count: 4) == Array("3456".utf8))
      #expect(try file.bytes(at: 8, count: 100) == Array("89".utf8))
      #expect(try file.bytes(at: 20, count: 5) == [])
      var buffer = [UInt8](repeating: 0, count: 6)
      #expect(try file.read(into: &buffer) == 6)
      #expect(buffer == Array("012345".utf8))
      try file.seek(to: 7)
      #expect(try file.read(into: &buffer) == 3)
      #expect(try file.read(into: &buffer) == 0)
    }
  }

  /// A file opened under its reader's cap that grows past it while it is read is refused by the
  /// read that passes the cap, at an offset or from the position, with the cap's diagnostic
  /// naming the size it grew to; bytes under the cap still read.
  @Test func aFileGrowingPastItsCapIsRefusedByTheReadThatPassesIt() throws {
    try Self.withFile(Array(repeating: 0x41, count: 100)) { path in
      let file = try InputFile(path: path, expecting: "a test file")
      let refusal = InputFileError.tooLarge(path, kind: "test file", limit: 150)
      file.limit = (150, refusal)
      #expect(try file.bytes(at: 0, count: 1000).count == 100)
      let descriptor = open(path, O_WRONLY | O_APPEND)
      try #require(descriptor >= 0)
      let more = [UInt8](repeating: 0x42, count: 100)
      #expect(more.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == 100)
      close(descriptor)
      #expect(try file.bytes(at: 100, count: 50).count == 50)
      #expect(throws: refusal(200)) { try file.bytes(at: 0, count: 1000) }
      #expect(throws: refusal(200)) { try file.bytes(at: 140, count: 20) }
      var buffer = [UInt8](repeating: 0, count: 120)
      #expect(try file.read(into: &buffer) == 120)
      #expect(throws: refusal(200)) { try file.read(into: &buffer) }
    }
  }

  @Test func aFolderAMissingFileAndADeviceAreRefusedAtOnce() throws {
    #expect(
      throws: InputFileError.unreadable(path: "/tmp", reason: "is a directory; expected a route")
    ) { try InputFile(path: "/tmp", expecting: "a route") }
    #expect(
      throws: InputFileError.unreadable(
        path: "/dev/null", reason: "is not a regular file; expected a route")
    ) { try InputFile(path: "/dev/null", expecting: "a route") }
    #expect(
      throws: InputFileError.unreadable(
        path: "/nonexistent/f", reason: "No such file or directory")
    ) { try InputFile(path: "/nonexistent/f", expecting: "a route") }
  }
}
