import Foundation
import Geodesy
import Receiver
import RouteFiles
import Simulation
import TestFixtures
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

  /// The epochs of a motion `step` seconds apart, read back.
  static func epochs(_ motion: any Motion, from start: UTCInstant, step: Double, count: Int)
    throws -> [Reported]
  {
    let source = SceneSource(scene: Scene(motion: motion))
    let nanoseconds = Int64((step * 1e9).rounded())
    return try (0..<count).map {
      try reported(source.epoch(at: start.adding(nanoseconds: Int64($0) * nanoseconds)))
    }
  }

  /// Checks each pair of successive epochs `step` seconds apart. The distance between their
  /// positions is never more than their speeds allow: the mean speed times the step, plus what
  /// an acceleration of at most `acceleration` can add within it (or the faster speed times the
  /// step, for a track's change of speed at a point), plus the rounding of the text: no
  /// teleport is ever reported at a lower speed. Where the course does not change
  /// (a straight stretch), the distance is also at least that much less, and the course points
  /// where the receiver goes next. Across a bend the chord is shorter than the road, which only
  /// the upper bound allows for.
  static func checkConsistency(
    _ epochs: [Reported], step: Double, acceleration: Double, name: String
  ) -> (checked: Int, straight: Int) {
    var checked = 0
    var straight = 0
    // The text's rounding: 1e-5 minutes of arc (2 cm) and 0.001 knot.
    let slack = 0.05
    for (a, b) in zip(epochs, epochs.dropFirst()) {
      let here = GeodeticPosition(known: a.latitude, a.longitude)
      let next = GeodeticPosition(known: b.latitude, b.longitude)
      let line = Geodesic.wgs84.inverse(from: here, to: next)
      let expected = (a.speed + b.speed) / 2 * step
      let tolerance = acceleration * step * step / 4 + slack
      // A recorded track changes speed at its points, at once: within a step, the distance
      // then lies between what the two speeds give.
      let most = max(expected + tolerance, max(a.speed, b.speed) * step + slack)
      let least = min(expected - tolerance, min(a.speed, b.speed) * step - slack)
      #expect(
        line.distanceMeters <= most,
        "\(name): \(line.distanceMeters) m in \(step) s at \(a.speed)…\(b.speed) m/s")
      checked += 1
      guard let course = a.course, a.course == b.course, line.distanceMeters > 1 else {
        continue
      }
      straight += 1
      #expect(
        line.distanceMeters >= least,
        "\(name): \(line.distanceMeters) m in \(step) s at \(a.speed)…\(b.speed) m/s")
      // What the rounding of the two positions can turn the direction by, and the course's
      // own rounding to 0.1°.
      let roundingDegrees = slack / line.distanceMeters * 180 / .pi + 0.1
      let off = abs(line.initialAzimuthDegrees - course)
      #expect(
        min(off, 360 - off) < roundingDegrees,
        "\(name): course \(course) but moved to \(line.initialAzimuthDegrees)")
    }
    return (checked, straight)
  }

  static func load(_ name: String) throws -> Route {
    try RouteFile.load(path: Fixtures.routesDirectory.appendingPathComponent(name).path)
  }

  @Test func aRecordedActivityPlayedAtItsOwnTimesMovesAsItsSpeedsAndCoursesSay() throws {
    let route = try Self.load("garmin-activity.gpx")
    let motion = try #require(TrackMotion(route: route, looping: false))
    let start = try #require(route.points.first?.time)
    let epochs = try Self.epochs(motion, from: start, step: 1, count: 900)
    // A recorded track moves at one speed along each segment: no acceleration within one.
    let result = Self.checkConsistency(
      epochs, step: 1, acceleration: 0, name: "garmin-activity.gpx")
    #expect(result.checked == 899)
    #expect(result.straight > 300)
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
    // At 10 Hz, so that most steps lie on one straight stretch.
    let epochs = try Self.epochs(motion, from: start, step: 0.1, count: min(seconds, 300) * 10)
    let result = Self.checkConsistency(
      epochs, step: 0.1, acceleration: DrivingLimits.car.accelerationMetersPerSecondSquared,
      name: name)
    #expect(result.checked == epochs.count - 1)
    // Dense recordings turn almost everywhere: their straight stretches are fewer.
    #expect(result.straight > 50)
    #expect(epochs.contains { abs($0.speed - 13.9) < 0.01 }, "cruises at 50 km/h")
  }
}
