import Foundation
import RouteFiles
import Simulation
import Testing

/// A long track made from a real one: the same points repeated, one second apart.
@Suite struct LargeRouteTests {
  @Test func aHundredThousandPointTrackLoadsWhole() throws {
    let source = try RouteFile.load(path: fixturePath("garmin_with_extensions.gpx")).points
    let count = 100_000
    let start = try instant("2019-05-01T04:31:11Z")
    var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><name>long</name><trkseg>\n"
    for index in 0..<count {
      let position = source[index % source.count].position
      let time = start.adding(nanoseconds: Int64(index) * UTCInstant.nanosecondsPerSecond)
      text +=
        "<trkpt lat=\"\(position.latitude)\" lon=\"\(position.longitude)\">"
        + "<ele>\(position.altitudeMeters)</ele><time>\(time)</time></trkpt>\n"
    }
    text += "</trkseg></trk></gpx>\n"
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("long.gpx").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)

    let route = try RouteFile.load(path: path)
    #expect(route.points.count == count)
    #expect(route.name == "long")
    #expect(route.isTimed)
    for index in [0, 3539, 3540, 77_777, count - 1] {
      #expect(route.points[index].position == source[index % source.count].position)
      #expect(
        route.points[index].time
          == start.adding(nanoseconds: Int64(index) * UTCInstant.nanosecondsPerSecond))
    }
  }
}
