import Foundation
import Testing

/// RTKLIB (`convbin`, `rnx2rtkp`) as an oracle of raw measurements, through
/// `Tests/Tools/rtklib_oracle.py`: a capture (UBX or RTCM 3) is turned into RINEX and solved
/// single point.
///
/// Tests using it are skipped when RTKLIB is missing, unless MOCKGPS_REQUIRE_GPSD=1
/// (`scripts/test`), which makes its absence fail.
public enum RTKLIBOracle {
  /// True when `scripts/test` requires the external tools.
  public static let required = ProcessInfo.processInfo.environment["MOCKGPS_REQUIRE_GPSD"] == "1"
  /// True when `convbin` and `rnx2rtkp` are installed.
  public static let installed = ["convbin", "rnx2rtkp"].allSatisfy {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)")
  }
  /// True when a test can run: RTKLIB installed, or required (then its absence fails).
  public static let runnable = installed || required

  /// Solves `bytes` and returns the oracle's JSON object, after printing the solution's
  /// figures under `label`.
  ///
  /// - Parameters:
  ///   - truth: the emitted position, ECEF meters (x, y, z).
  ///   - format: the tool's extra arguments (`["rtcm3", time]` for RTCM 3; none for UBX).
  ///   - systems: the systems rnx2rtkp solves with, as RINEX letters (`G,E,C`).
  /// - Throws: when RTKLIB is missing (the test was required to run) or the tool failed.
  public static func solve(
    _ bytes: [UInt8], truth: [Double], format: [String] = [], systems: String = "G",
    label: String
  ) throws -> [String: Any] {
    try #require(
      installed,
      "RTKLIB (convbin, rnx2rtkp) is not installed and MOCKGPS_REQUIRE_GPSD=1 requires it")
    let result = try PythonTool.json(
      "rtklib_oracle.py", input: Data(bytes),
      arguments: ["--systems=\(systems)"] + truth.map { String($0) } + format)
    let figures = [
      "solutions", "meanError", "p95Error", "maxError", "within2m", "meanOffset", "residualRMS",
    ].map {
      "\($0) \(result[$0].map { "\($0)" } ?? "-")"
    }
    print("rnx2rtkp single point, \(label): \(figures.joined(separator: ", "))")
    return result
  }

  /// Checks that every one of `epochs` epochs was solved, at least 95 % of them within 2 m
  /// (3D) and the 95th percentile too, and that the mean error vector is shorter than
  /// `meanOffsetMeters` (white noise averages out; a model error would stay).
  public static func expectSolved(
    _ result: [String: Any], epochs: Int, meanOffsetMeters: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result["solutions"] as? Int == epochs, "\(result)", sourceLocation: sourceLocation)
    let within = result["within2m"] as? Int ?? 0
    #expect(Double(within) >= 0.95 * Double(epochs), "\(result)", sourceLocation: sourceLocation)
    #expect(
      (result["p95Error"] as? Double ?? .infinity) <= 2, "\(result)", sourceLocation: sourceLocation
    )
    #expect(
      (result["meanOffset"] as? Double ?? .infinity) < meanOffsetMeters, "\(result)",
      sourceLocation: sourceLocation)
  }
}
