import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps check` holds a route file in memory at most a small multiple of its size, whatever
/// its format: the readers keep the points, not the text. Before, GeoJSON was parsed whole into
/// a tree of nodes: 10.8 MB of peak memory a MB of this test's file over `check`'s own (2.5
/// streamed; CSV 2.0, KML 4.5).
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct RouteMemoryProcessTests {
  /// The most peak resident memory `check` may add a MB of route file, over its own on a file
  /// of one point (KML's 4.5, the highest, is libxml2's reader).
  static let megabytesPerMegabyte = 5.0
  /// The size of the routes checked: large enough that their points outweigh the noise of the
  /// allocator, small enough to check in a second or two in a debug build.
  static let routeBytes = 2 << 20

  /// A route format as a track is written in it.
  struct TrackFormat: Sendable {
    /// Its name, the file's extension.
    var name: String
    /// The text before the points.
    var head: String
    /// One point, from its longitude, latitude and altitude.
    var point: @Sendable (Double, Double, Int) -> String
    /// The text after the points.
    var tail: String
  }

  /// The formats.
  static let formats: [TrackFormat] = [
    TrackFormat(
      name: "gpx",
      head: #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">"#
        + "<trk><trkseg>\n",
      point: { #"<trkpt lat="\#($1)" lon="\#($0)"><ele>\#($2)</ele></trkpt>"# + "\n" },
      tail: "</trkseg></trk></gpx>\n"),
    TrackFormat(
      name: "geojson",
      head: #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":["#,
      point: { "[\($0),\($1),\($2)],\n" }, tail: "[0,0]]}}\n"),
    TrackFormat(name: "csv", head: "lat,lon,alt\n", point: { "\($1),\($0),\($2)\n" }, tail: ""),
    TrackFormat(
      name: "kml",
      head: #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark>"#
        + "<LineString><coordinates>\n",
      point: { "\($0),\($1),\($2)\n" }, tail: "</coordinates></LineString></Placemark></kml>\n"),
  ]

  /// Writes a track of about `bytes` bytes in `format` to `path`, 64 KiB at a time.
  static func writeTrack(
    _ format: TrackFormat,
    bytes: Int, to path: String
  ) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let file = FileHandle(forWritingAtPath: path)
    else { throw TestFailure("cannot create \(path)") }
    defer { try? file.close() }
    var chunk = format.head
    var written = 0
    var index = 0
    while index == 0 || written + chunk.utf8.count < bytes {
      let step = Double(index) * 1e-6
      chunk += format.point(-0.1234567 + step, 51.1234567 + step, 40 + index % 100)
      index += 1
      if chunk.utf8.count >= 64 << 10 {
        try file.write(contentsOf: Data(chunk.utf8))
        written += chunk.utf8.count
        chunk.removeAll(keepingCapacity: true)
      }
    }
    try file.write(contentsOf: Data((chunk + format.tail).utf8))
  }

  /// Runs `mockgps check path`: its exit status and its peak resident memory in MB, as GNU
  /// time reports it. Not the test's own `wait4`: the kernel counts in a child's peak the
  /// memory of the process it was spawned from (this test runner's, tens of MB), which
  /// `time`'s forked child does not have.
  static func check(_ path: String, scratch: String) throws -> (
    status: Int32, peakMegabytes: Double
  ) {
    let report = scratch + "/time.txt"
    let result = try ChildProcess.run(
      "/usr/bin/time", ["-f", "%M", "-o", report, MockGPSBinary.path, "check", path])
    let kilobytes = try String(contentsOfFile: report, encoding: .utf8)
      .split(separator: "\n").last.flatMap { Double($0) }
    return (result.status, try #require(kilobytes) / 1024)
  }

  @Test(arguments: formats.map(\.name))
  func checkHoldsARouteInASmallMultipleOfItsSize(format name: String) throws {
    let format = try #require(Self.formats.first { $0.name == name })
    let scratch = try ScratchDirectory("route-memory")
    defer { scratch.remove() }
    try Self.expectSmallMultiple(format, status: 0, scratch: scratch)
  }

  /// Checks a track of `format` of one point and one of `routeBytes`, expects `status` from
  /// both, and at most `megabytesPerMegabyte` of peak memory a MB of the larger over the smaller.
  static func expectSmallMultiple(
    _ format: TrackFormat, status: Int32, scratch: ScratchDirectory
  ) throws {
    let small = scratch.path + "/small." + format.name
    let large = scratch.path + "/large." + format.name
    try writeTrack(format, bytes: 0, to: small)
    try writeTrack(format, bytes: routeBytes, to: large)
    let size = Double(
      try #require(FileManager.default.attributesOfItem(atPath: large)[.size] as? Int))
    let base = try check(small, scratch: scratch.path)
    let loaded = try check(large, scratch: scratch.path)
    #expect(base.status == status && loaded.status == status)
    let perMegabyte = (loaded.peakMegabytes - base.peakMegabytes) / (size / 1e6)
    #expect(
      perMegabyte <= megabytesPerMegabyte,
      "\(format.name): \(perMegabyte) MB a MB (\(loaded.peakMegabytes) MB for \(size / 1e6) MB)")
  }

  /// A GeoJSON array the route reader keeps but cannot pack (numbers where positions belong)
  /// costs no more than a track of the same size: the file is refused (exit 65) within the same
  /// multiple of its size. Found in review: each element is kept as a node of its own (27 MB a
  /// MB here; `check` of `[0,0,0,…]` without newlines peaked at 485 MB for 10 MiB and 1.9 GB for
  /// 64 MiB, and the 256 MiB cap lets it reach gigabytes more).
  @Test func checkRefusesAnArrayOfNumbersInASmallMultipleOfItsSize() throws {
    let scratch = try ScratchDirectory("route-memory")
    defer { scratch.remove() }
    let format = TrackFormat(
      name: "geojson", head: #"{"type":"LineString","coordinates":["#,
      point: { _, _, _ in "0,\n" }, tail: "0]}\n")
    try Self.expectSmallMultiple(format, status: 65, scratch: scratch)
  }
}
