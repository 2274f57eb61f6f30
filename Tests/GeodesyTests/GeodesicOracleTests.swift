import Foundation
import Geodesy
import TestFixtures
import Testing

/// Checks the geodesics against GeographicLib (Karney's reference implementation, through its
/// Python package) on a few thousand seeded cases, all in one `python3` process.
@Suite(.blocking) struct GeodesicOracleTests {
  static let fractionAlong = 0.37

  /// GeographicLib's answers, one line per case: inverse s12 azi1 azi2, direct lat2 lon2 azi2,
  /// then the point `fractionAlong` of the way along the inverse line (lat, lon).
  static let oracleScript = """
    import sys
    from geographiclib.geodesic import Geodesic
    g = Geodesic.WGS84
    out = []
    for line in open(sys.argv[1]):
        lat1, lon1, lat2, lon2, azi, s, fraction = map(float, line.split())
        i = g.Inverse(lat1, lon1, lat2, lon2)
        d = g.Direct(lat1, lon1, azi, s)
        l = g.InverseLine(lat1, lon1, lat2, lon2)
        p = l.Position(fraction * l.s13)
        out.append(" ".join(repr(x) for x in (i["s12"], i["azi1"], i["azi2"],
            d["lat2"], d["lon2"], d["azi2"], p["lat2"], p["lon2"])))
    print("\\n".join(out))
    """

  @Test func agreesWithGeographicLibWithinAMillimetreAndAMicrodegree() throws {
    let samples = GeodesicSample.generate(count: 4000, seed: 20_130_101)
    let input = samples.map {
      "\($0.a.latitude) \($0.a.longitude) \($0.b.latitude) \($0.b.longitude)"
        + " \($0.azimuthDegrees) \($0.distanceMeters) \(Self.fractionAlong)"
    }
    let answers = try runOracle(input: input.joined(separator: "\n") + "\n")
    try #require(answers.count == samples.count, "GeographicLib answered \(answers.count) cases")
    let geodesic = Geodesic.wgs84
    for (sample, oracle) in zip(samples, answers) {
      let inverse = geodesic.inverse(from: sample.a, to: sample.b)
      let azimuthTolerance = Self.azimuthTolerance(distanceMeters: oracle[0])
      #expect(abs(inverse.distanceMeters - oracle[0]) < 1e-3, "distance \(sample)")
      #expect(
        angleBetween(inverse.initialAzimuthDegrees, oracle[1]) < azimuthTolerance, "\(sample)")
      #expect(angleBetween(inverse.finalAzimuthDegrees, oracle[2]) < azimuthTolerance, "\(sample)")

      let direct = geodesic.direct(
        from: sample.a, azimuthDegrees: sample.azimuthDegrees,
        distanceMeters: sample.distanceMeters)
      expectSamePoint(direct.position, latitude: oracle[3], longitude: oracle[4], "\(sample)")
      #expect(angleBetween(direct.finalAzimuthDegrees, oracle[5]) < 1e-6, "direct azi2 \(sample)")

      let along = geodesic.interpolate(from: sample.a, to: sample.b, fraction: Self.fractionAlong)
      expectSamePoint(along.position, latitude: oracle[6], longitude: oracle[7], "along \(sample)")
    }
  }

  /// 10⁻⁶°, except for lines of a few centimetres: there the inputs' own rounding (one unit in
  /// the last place of a coordinate is up to 2 nm) already turns the azimuth by more, so both
  /// implementations are only as good as 2 nm sideways over the line's length.
  static func azimuthTolerance(distanceMeters: Double) -> Double {
    max(1e-6, (2e-9 / distanceMeters).degrees)
  }

  /// Within 10⁻⁶° in latitude and longitude (longitude is moot at a pole) and within 1 mm.
  private func expectSamePoint(
    _ point: GeodeticPosition, latitude: Double, longitude: Double, _ context: String
  ) {
    #expect(abs(point.latitude - latitude) < 1e-6, "latitude \(context)")
    if abs(latitude) < 90 - 1e-9 {
      #expect(angleBetween(point.longitude, longitude) < 1e-6, "longitude \(context)")
    }
    let expected = GeodeticPosition(known: latitude, longitude.remainder(dividingBy: 360))
    let gap = Geodesic.wgs84.inverse(from: point, to: expected).distanceMeters
    #expect(gap < 1e-3, "\(gap) m off \(context)")
  }

  /// Runs GeographicLib on `input`; a missing python3 or geographiclib throws, failing the test.
  private func runOracle(input: String) throws -> [[Double]] {
    let directory = FileManager.default.temporaryDirectory
    let inputFile = directory.appendingPathComponent("geodesic-oracle-\(getpid()).txt")
    try input.write(to: inputFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: inputFile) }

    let run = try ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", Self.oracleScript, inputFile.path])
    guard run.status == 0 else { throw OracleUnavailable(message: run.errorText) }
    return run.outputText.split(separator: "\n").map { line in
      line.split(separator: " ").map { Double($0) ?? .nan }
    }
  }
}

/// python3 or its geographiclib package is missing.
struct OracleUnavailable: Error, CustomStringConvertible {
  var message: String
  var description: String {
    "GeographicLib is the oracle (python3 with the geographiclib package):"
      + " run scripts/install-deps --test; python3 said: \(message)"
  }
}

extension Double {
  /// Radians to degrees.
  fileprivate var degrees: Double { self * 180 / .pi }
}
