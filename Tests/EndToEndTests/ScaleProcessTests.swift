import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps ctl scale` against a running `mockgps run --route`: the speed along the route seen
/// on the tty follows the factor, and `status` says how long the route is and where it is.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ScaleProcessTests {
  /// A straight route 55 km north, driven at 10 m/s.
  static let gpx = """
    <?xml version="1.0"?>
    <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="46.0" lon="14.0"/><trkpt lat="46.5" lon="14.0"/>
    </trkseg></trk></gpx>
    """

  @Test func ctlScaleChangesTheSpeedAlongTheRouteOnTheTTY() throws {
    let scratch = try ScratchDirectory("ctl-scale")
    defer { scratch.remove() }
    let link = scratch.path + "/tty"
    let socket = scratch.path + "/control.sock"
    let route = scratch.path + "/north.gpx"
    try Self.gpx.write(toFile: route, atomically: true, encoding: .utf8)
    let (process, _) = try MockGPSBinary.start([
      "--link", link, "--control", socket, "--route", route, "--speed", "10", "--accel", "100",
      "--once", "--rate", "5",
    ])
    defer { process.kill() }
    #expect(
      process.wait(seconds: 10) { process.standardError.contains("control socket: \(socket)") },
      "\(process.standardError)")
    let reader = try DeviceReader(path: link)

    let real = try #require(Self.speed(reader), "no GGA at scale 1")
    #expect((7...13).contains(real), "\(real) m/s at scale 1")

    let (status, output, error) = try MockGPSBinary.run(["ctl", "--control", socket, "scale", "10"])
    #expect(status == 0 && output == "ok\n", "\(output)\(error)")
    _ = reader.readLines(10, timeoutSeconds: 0.5)  // the epochs encoded before the change
    let fast = try #require(Self.speed(reader), "no GGA at scale 10")
    #expect((70...130).contains(fast), "\(fast) m/s at scale 10")

    let (_, json, _) = try MockGPSBinary.run(["ctl", "--control", socket, "--json", "status"])
    let fields = try #require(
      JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
    #expect(fields["scale"] as? Double == 10, "\(json)")
    let seconds = try #require(fields["route_seconds"] as? Double, "\(json)")
    #expect((5500...5700).contains(seconds), "55.6 km at 10 m/s: \(json)")
    let time = try #require(fields["route_time"] as? Double, "\(json)")
    #expect(time > 20 && time < seconds, "\(json)")

    let (refused, _, refusal) = try MockGPSBinary.run(["ctl", "--control", socket, "scale", "0"])
    #expect(refused == 1)
    #expect(refusal.contains("'factor' expected a number in 0.1...100, got 0"), "\(refusal)")

    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0, "\(process.standardError)")
  }

  /// The speed along the route over about 2 s of GGA sentences: distance over the time their
  /// UTC fields give (not the speed the receiver reports).
  static func speed(_ reader: DeviceReader) -> Double? {
    let fixes = reader.readLines(200, timeoutSeconds: 2).compactMap { gga($0.text) }
    guard let first = fixes.first, let last = fixes.last, last.seconds > first.seconds else {
      return nil
    }
    // Due north: latitude degrees times 111.2 km.
    return (last.latitude - first.latitude) * 111_200 / (last.seconds - first.seconds)
  }

  /// The UTC seconds of the day and the latitude of a GGA sentence.
  static func gga(_ line: String) -> (seconds: Double, latitude: Double)? {
    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count > 3, fields[0].hasSuffix("GGA"), fields[1].count >= 6,
      let hours = Double(fields[1].prefix(2)),
      let minutes = Double(fields[1].dropFirst(2).prefix(2)),
      let seconds = Double(fields[1].dropFirst(4)), fields[2].count > 4,
      let degrees = Double(fields[2].prefix(2)), let arcMinutes = Double(fields[2].dropFirst(2))
    else { return nil }
    return (hours * 3600 + minutes * 60 + seconds, degrees + arcMinutes / 60)
  }
}
