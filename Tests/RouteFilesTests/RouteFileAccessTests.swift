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

  /// A 1 GiB file made sparse with `ftruncate`, after `head`: refused with `message`.
  @Test(arguments: [
    ("", "1: unknown content"),
    ("lat,lon\n1,2\n", "3: line longer than 65536 bytes: expected one point a line"),
    ("{\"type\": ", " GeoJSON file of 1073741824 bytes: at most 33554432 bytes are read"),
    ("<gpx>\n", "2: malformed XML"),
  ])
  func aHugeGarbageFileIsRefused(head: String, message: String) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("huge").path
    let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
    try #require(descriptor >= 0)
    _ = head.utf8CString.withUnsafeBufferPointer {
      write(descriptor, $0.baseAddress, head.utf8.count)
    }
    try #require(ftruncate(descriptor, 1 << 30) == 0)
    close(descriptor)
    let found = diagnostics { try RouteFile.load(path: path) }
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix(path + ":" + message) == true, "\(found)")
  }
}
