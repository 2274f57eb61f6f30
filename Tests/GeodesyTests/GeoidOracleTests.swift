import Foundation
import Geodesy
import TestFixtures
import Testing

/// The 10° table against PROJ's 15′ EGM96 grid read by `Tests/Tools/geoid_oracle.py`, and
/// against the separations real receivers reported in gpsd's logs.
@Suite(.blocking) struct GeoidOracleTests {
  static let grid = "/usr/share/proj/egm96_15.gtx"
  static let required = ProcessInfo.processInfo.environment["MOCKGPS_REQUIRE_GPSD"] == "1"
  /// The grid is there, or required (then its absence fails the tests).
  static let gridAvailable = FileManager.default.fileExists(atPath: grid) || required
  let geoid = EGM96Geoid()

  @Test(.enabled(if: gridAvailable, "proj-data is not installed (scripts/install-deps --test)"))
  func nodesEqualThe15MinuteGridToTheDecimeter() throws {
    var points: [(Double, Double)] = []
    for latitude in stride(from: -90.0, through: 90, by: 10) {
      for longitude in stride(from: -180.0, to: 180, by: 10) {
        points.append((latitude, longitude))
      }
    }
    let reference = try Self.oracle(points)
    try #require(reference.count == points.count)
    for ((latitude, longitude), expected) in zip(points, reference) {
      let found = geoid.separationMeters(latitude: latitude, longitude: longitude)
      #expect(abs(found - expected) <= 0.05 + 1e-6, "\(latitude), \(longitude)")
    }
  }

  /// Between nodes the 10° grid smooths the geoid: on 5,000 seeded points spread evenly over
  /// the sphere, half are within 2 m of the 15′ grid, 95 % within 8 m and all within 30 m.
  @Test(.enabled(if: gridAvailable, "proj-data is not installed (scripts/install-deps --test)"))
  func pointsBetweenNodesAreWithinTheCoarseGridsError() throws {
    var random = SeededRandom(seed: 96)
    let points = (0..<5000).map { _ in
      (asin(random.uniform(-1...1)) * 180 / .pi, random.uniform(-180...180))
    }
    let reference = try Self.oracle(points)
    try #require(reference.count == points.count)
    let errors = zip(points, reference).map { point, expected in
      abs(geoid.separationMeters(latitude: point.0, longitude: point.1) - expected)
    }.sorted()
    let median = errors[errors.count / 2]
    let p95 = errors[errors.count * 95 / 100]
    let worst = errors[errors.count - 1]
    #expect(median < 2, "median \(median) m")
    #expect(p95 < 8, "95th percentile \(p95) m")
    #expect(worst < 30, "worst \(worst) m")
  }

  /// The separation in the first GGA with a fix of each log, and how close the table must be:
  /// u-blox receivers carry a 10° table (within 0.2 m), the SiRFstar V a finer one (1.9 m off).
  @Test(arguments: [
    ("neo-m8n.log", 0.3), ("ublox-neo-m9n-nmea.log", 0.3), ("ublox-zed-f9p-nmea.log", 0.3),
    ("sirfstarv-nmea.log", 2.5),
  ])
  func agreesWithWhatRealReceiversReport(log: String, tolerance: Double) throws {
    let gga = try #require(
      try Fixtures.nmeaLines(of: Fixtures.gpsdLog(log)).lazy.map(\.text).compactMap(
        ReportedSeparation.init
      ).first, "no GGA with a fix and a separation in \(log)")
    let found = geoid.separationMeters(latitude: gga.latitude, longitude: gga.longitude)
    #expect(
      abs(found - gga.meters) <= tolerance,
      "\(log): \(gga.latitude), \(gga.longitude) reported \(gga.meters) m, table \(found) m")
  }

  /// Runs the oracle on points; a missing python3 or grid throws, failing the test.
  static func oracle(_ points: [(Double, Double)]) throws -> [Double] {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tools/geoid_oracle.py").path
    let text = points.map { "\($0.0) \($0.1)\n" }.joined()
    let run = try ChildProcess.run(
      "/usr/bin/env", ["python3", script, grid], input: Data(text.utf8))
    guard run.status == 0 else {
      throw OracleUnavailable(message: "geoid_oracle.py: \(run.errorText)")
    }
    return run.outputText.split(separator: "\n").map { Double($0) ?? .nan }
  }
}

/// A GGA sentence's position and geoid separation, when it has a fix and a separation.
struct ReportedSeparation {
  let latitude: Double
  let longitude: Double
  let meters: Double

  init?(_ sentence: String) {
    let fields = sentence.split(separator: "*")[0].split(
      separator: ",", omittingEmptySubsequences: false)
    guard fields.count >= 12, fields[0].hasSuffix("GGA"), fields[6] != "0",
      let latitude = Self.degrees(fields[2], hemisphere: fields[3], degreeDigits: 2),
      let longitude = Self.degrees(fields[4], hemisphere: fields[5], degreeDigits: 3),
      let meters = Double(fields[11])
    else { return nil }
    self.latitude = latitude
    self.longitude = longitude
    self.meters = meters
  }

  /// `ddmm.mmmm` or `dddmm.mmmm` with its hemisphere, in degrees.
  static func degrees(_ text: Substring, hemisphere: Substring, degreeDigits: Int) -> Double? {
    guard text.count > degreeDigits, let whole = Double(text.prefix(degreeDigits)),
      let minutes = Double(text.dropFirst(degreeDigits))
    else { return nil }
    let value = whole + minutes / 60
    return hemisphere == "S" || hemisphere == "W" ? -value : value
  }
}
