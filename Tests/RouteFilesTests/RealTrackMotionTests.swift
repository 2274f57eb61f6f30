import Foundation
import Geodesy
import MockGPSTestSupport
import Receiver
import RouteFiles
import Simulation
import Testing

/// On real tracks read from their files, what RMC and VTG say of speed and course agrees with
/// how far and where the positions they report move from one epoch to the next.
@Suite struct RealTrackMotionTests {
  /// What one epoch's RMC and VTG say, read back from the text.
  struct Reported {
    var latitude: Double
    var longitude: Double
    var speed: Double
    var course: Double?
  }

  static let knot = 1852.0 / 3600

  /// Position, speed and course from the RMC of an epoch; checks that VTG says the same.
  static func reported(_ epoch: Epoch) throws -> Reported {
    let lines = String(decoding: epoch.bytes, as: UTF8.self).split(separator: "\r\n")
    let rmc = try #require(lines.first { $0.hasPrefix("$GPRMC") }).split(
      separator: ",", omittingEmptySubsequences: false)
    let vtg = try #require(lines.first { $0.hasPrefix("$GPVTG") }).split(
      separator: ",", omittingEmptySubsequences: false)
    #expect(rmc[2] == "A")
    #expect(vtg[1] == rmc[8] && vtg[5] == rmc[7], "VTG \(vtg) disagrees with RMC \(rmc)")
    let knots = try #require(Double(rmc[7]))
    #expect(abs(try #require(Double(vtg[7])) - knots * 1.852) < 0.002)
    return Reported(
      latitude: try angle(rmc[3], degreeDigits: 2, hemisphere: rmc[4], negative: "S"),
      longitude: try angle(rmc[5], degreeDigits: 3, hemisphere: rmc[6], negative: "W"),
      speed: knots * knot, course: Double(rmc[8]))
  }

  /// Degrees from NMEA's `ddmm.mmmmm`.
  static func angle(
    _ text: Substring, degreeDigits: Int, hemisphere: Substring, negative: Substring
  ) throws -> Double {
    let degrees = try #require(Double(text.prefix(degreeDigits)))
    let minutes = try #require(Double(text.dropFirst(degreeDigits)))
    return (degrees + minutes / 60) * (hemisphere == negative ? -1 : 1)
  }

  /// The epochs of a motion at 1 Hz, read back.
  static func epochs(_ motion: any Motion, from start: UTCInstant, count: Int) throws
    -> [Reported]
  {
    let source = SceneSource(scene: Scene(motion: motion))
    return try (0..<count).map {
      try reported(source.epoch(at: start.adding(nanoseconds: Int64($0) * 1_000_000_000)))
    }
  }

  /// Checks each pair of successive epochs a second apart: the distance between their
  /// positions is at most the faster of their speeds (plus the rounding of the text), and at
  /// least the slower one shortened by the turn between them (a chord across a bend is shorter
  /// than the road); the course points where the receiver goes next, within the turn.
  static func checkConsistency(_ epochs: [Reported], name: String) -> (checked: Int, worst: Double)
  {
    var checked = 0
    var worst = 0.0
    // The text's rounding: 1e-5 minutes of arc (2 cm) and 0.001 knot.
    let slack = 0.05
    for (a, b) in zip(epochs, epochs.dropFirst()) {
      let here = GeodeticPosition(known: a.latitude, a.longitude)
      let next = GeodeticPosition(known: b.latitude, b.longitude)
      let line = Geodesic.wgs84.inverse(from: here, to: next)
      let turn = min(360 - abs((b.course ?? 0) - (a.course ?? 0)), abs((b.course ?? 0) - (a.course ?? 0)))
      let fastest = max(a.speed, b.speed)
      let slowest = min(a.speed, b.speed) * cosine(min(turn, 180) / 2)
      #expect(line.distanceMeters <= fastest + slack, "\(name): \(line.distanceMeters) m in 1 s at \(a.speed)…\(b.speed) m/s")
      #expect(line.distanceMeters >= slowest - slack, "\(name): \(line.distanceMeters) m in 1 s at \(a.speed)…\(b.speed) m/s, turning \(turn)°")
      if let course = a.course, line.distanceMeters > 1, turn < 1 {
        let off = abs(line.initialAzimuthDegrees - course)
        worst = max(worst, min(off, 360 - off))
        #expect(min(off, 360 - off) < 1, "\(name): course \(course) but moved to \(line.initialAzimuthDegrees)")
      }
      checked += 1
    }
    return (checked, worst)
  }

  static func cosine(_ degrees: Double) -> Double { cos(degrees * .pi / 180) }

  static func load(_ name: String) throws -> Route {
    try RouteFile.load(path: Fixtures.routesDirectory.appendingPathComponent(name).path)
  }

  @Test func aRecordedActivityPlayedAtItsOwnTimesMovesAsItsSpeedsAndCoursesSay() throws {
    let route = try Self.load("garmin-activity.gpx")
    let motion = try #require(TrackMotion(route: route, looping: false))
    let start = try #require(route.points.first?.time)
    let epochs = try Self.epochs(motion, from: start, count: 900)
    let result = Self.checkConsistency(epochs, name: "garmin-activity.gpx")
    #expect(result.checked == 899)
    #expect(epochs.contains { $0.speed > 2 }, "the activity moves")
  }

  @Test(arguments: ["ecology-trail-and-lovers-lane-loop.gpx", "route.gpx", "korita-zbevnica.gpx"])
  func aRouteDrivenByCarMovesAsItsSpeedsAndCoursesSay(name: String) throws {
    var route = try Self.load(name)
    route.points = route.points.map { RoutePoint(position: $0.position) }
    let start = UTCInstant(year: 2024, month: 7, day: 1, hour: 12)
    let motion = try #require(
      RouteDriving(route: route, limits: .car, startTime: start, looping: false))
    let end = try #require(motion.endTime)
    let seconds = Int((end.nanoseconds - start.nanoseconds) / 1_000_000_000) + 2
    let epochs = try Self.epochs(motion, from: start, count: min(seconds, 1200))
    let result = Self.checkConsistency(epochs, name: name)
    #expect(result.checked == epochs.count - 1)
    #expect(epochs.contains { abs($0.speed - 13.9) < 0.01 }, "cruises at 50 km/h")
  }
}
