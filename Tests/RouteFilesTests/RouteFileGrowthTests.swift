import Foundation
import InputFiles
import RouteFiles
import Simulation
import Testing

/// A route file that grows past the size cap while it is read is refused as one that was too
/// large when opened, whatever its format: the cap holds for every read, not only at open.
@Suite struct RouteFileGrowthTests {
  /// The head written before the file is opened, and the rest appended after, in each format:
  /// together a valid route of 1000 points, over 4 KiB.
  static let formats: [(String, String, String)] = [
    ("t.csv", "lat,lon\n", String(repeating: "1.5,2.5\n", count: 1000)),
    (
      "t.gpx", "<gpx><trk><trkseg>\n",
      String(repeating: "<trkpt lat=\"1.5\" lon=\"2.5\"/>\n", count: 1000)
        + "</trkseg></trk></gpx>\n"
    ),
    (
      "t.kml", "<kml><LineString><coordinates>\n",
      String(repeating: "2.5,1.5\n", count: 1000) + "</coordinates></LineString></kml>\n"
    ),
    (
      "t.geojson", #"{"type": "LineString", "coordinates": ["#,
      Array(repeating: "\n[2.5, 1.5]", count: 1000).joined(separator: ",") + "]}\n"
    ),
  ]

  /// Opens a file holding `head`, appends `rest`, and reads it under a cap of `limit` bytes.
  static func loadGrown(name: String, head: String, rest: String, limit: Int) throws -> Route {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(name).path
    try Data(head.utf8).write(to: URL(fileURLWithPath: path))
    let file = try InputFile(path: path, expecting: "a route file")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(rest.utf8))
    try handle.close()
    return try RouteFile.$sizeLimit.withValue(limit) { try RouteFile.load(file) }
  }

  @Test(arguments: formats)
  func aFileGrownPastTheCapIsRefused(name: String, head: String, rest: String) throws {
    let size = head.utf8.count + rest.utf8.count
    try #require(size > 4096 && head.utf8.count < 4096)
    #expect(
      try Self.loadGrown(name: name, head: head, rest: rest, limit: size).points.count == 1000)
    let found = diagnostics { try Self.loadGrown(name: name, head: head, rest: rest, limit: 4096) }
    #expect(found.count == 1, "\(found)")
    #expect(
      found.first?.hasSuffix(
        ": route file of \(size) bytes: at most 4096 bytes are read; thin the track"
          + " (gpsbabel -x simplify) or split it") == true, "\(found)")
  }
}
