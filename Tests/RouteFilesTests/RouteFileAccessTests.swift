import Foundation
import InputFiles
import RouteFiles
import Testing

/// Files that cannot be read, and huge files that must be refused without reading them whole.
@Suite struct RouteFileAccessTests {
  @Test func aMissingFileOrADirectoryIsUnreadable() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("none.gpx").path
    #expect(throws: InputFileError.unreadable(path: missing, reason: "No such file or directory")) {
      try RouteFile.load(path: missing)
    }
    #expect(
      throws: InputFileError.unreadable(
        path: folder.path, reason: "is a directory; expected a route file")
    ) { try RouteFile.load(path: folder.path) }
  }

  @Test func aFileWithoutReadPermissionIsUnreadable() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("locked.gpx").path
    try FileManager.default.copyItem(atPath: fixturePath("route.gpx"), toPath: file)
    chmod(file, 0)
    if geteuid() == 0 {
      // root reads whatever the mode says: the file loads.
      #expect(try RouteFile.load(path: file).points.count == 55)
    } else {
      #expect(throws: InputFileError.unreadable(path: file, reason: "Permission denied")) {
        try RouteFile.load(path: file)
      }
    }
  }

  /// A file of `size` bytes made sparse with `ftruncate`, after `head`: refused with `message`.
  /// Under the cap every format finds the garbage at once (GeoJSON is streamed); over it the
  /// file is refused for its size, before a byte is read.
  @Test(arguments: [
    ("", 200 << 20, "1: unknown content"),
    ("lat,lon\n1,2\n", 200 << 20, "3: line longer than 65536 bytes: expected one point a line"),
    ("{\"type\": ", 200 << 20, "1:10: malformed JSON: expected a value, got byte 0"),
    ("<gpx>\n", 200 << 20, "2: malformed XML"),
    (
      "{\"type\": ", 1 << 30,
      " route file of 1073741824 bytes: at most 268435456 bytes are read; thin the track"
    ),
    ("lat,lon\n1,2\n", 1 << 30, " route file of 1073741824 bytes: at most 268435456 bytes"),
  ])
  func aHugeGarbageFileIsRefused(head: String, size: Int, message: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("huge").path
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
    try #require(descriptor >= 0)
    _ = head.utf8CString.withUnsafeBufferPointer {
      write(descriptor, $0.baseAddress, head.utf8.count)
    }
    try #require(ftruncate(descriptor, off_t(size)) == 0)
    close(descriptor)
    let found = diagnostics { try RouteFile.load(path: path) }
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix(path + ":" + message) == true, "\(found)")
  }
}
