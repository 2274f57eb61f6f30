import Foundation
import Glibc
import MockGPSTestSupport
import Testing

/// Routes and scenarios through the real gpsd: what gpsd reports is checked against independent
/// oracles (gpxpy and GeographicLib in `Tests/Tools/track_oracle.py`).
@Suite(.serialized) struct GpsdRouteTests {
  /// A recorded activity of 988 points over 1 h 32 min (Tests/Fixtures/routes/).
  static let track = Fixtures.routesDirectory.appendingPathComponent("garmin-activity.gpx").path

  @Test(.enabled(if: GpsdSession.runnable))
  func aTimedTrackAtTenTimesSpeedReachesGpsdAtTheTracksPositionsTimesAndSpeeds() throws {
    let directory = try ScratchDirectory("gpsd-route")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--route", Self.track, "--time-scale", "10", "--baud", "9600",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: true, reports: 150)
    defer { gpsd.stop() }
    let fixes = gpsd.reports("TPV", within: 40).filter { ($0["mode"] as? Int ?? 0) >= 2 }
    #expect(fixes.count >= 50, "\(gpsd.transcript)")
    // Ten epochs a wall second, each a simulated second after the one before.
    let times = fixes.compactMap { ($0["time"] as? String).flatMap(Self.seconds) }
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }
    #expect(steps.allSatisfy { $0 >= 0.999 && $0 <= 1.001 }, "steps between fixes: \(steps)")
    let comparison = try Self.oracle(fixes)
    #expect(comparison.compared == fixes.count)
    #expect(comparison.maxDistance < 1, "\(comparison)")
    #expect(comparison.maxSpeedError < 0.5, "\(comparison)")
    #expect(comparison.first.hasPrefix("2017-07-29T14:4"), "\(comparison)")
  }

  /// What the oracle found.
  struct Comparison: CustomStringConvertible {
    var compared: Int
    var maxDistance: Double
    var maxSpeedError: Double
    var first: String
    var description: String {
      "\(compared) fixes from \(first): \(maxDistance) m, \(maxSpeedError) m/s at worst"
    }
  }

  /// Runs the oracle on gpsd's fixes.
  static func oracle(_ fixes: [[String: Any]]) throws -> Comparison {
    let directory = try ScratchDirectory("oracle")
    defer { directory.remove() }
    let input = directory.path + "/tpv.jsonl"
    let lines = try fixes.map {
      String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
    }
    try lines.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
    let script = ToolPaths.tools + "/track_oracle.py"
    let oracle = try TestProcess(
      "/bin/sh", ["-c", "exec python3 '\(script)' '\(track)' < '\(input)'"])
    #expect(oracle.exitStatus(within: 60) == 0, "\(oracle.standardError)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(oracle.standardOutput.utf8)) as? [String: Any],
      """
      the oracle printed: \(oracle.standardOutput)\(oracle.standardError) \
      (scripts/install-deps --test installs gpxpy and geographiclib)
      """)
    return Comparison(
      compared: result["compared"] as? Int ?? 0,
      maxDistance: result["max_distance_m"] as? Double ?? .infinity,
      maxSpeedError: result["max_speed_error_mps"] as? Double ?? .infinity,
      first: result["first"] as? String ?? "")
  }

  /// Seconds since 1970 of gpsd's `2017-07-29T14:46:35.000Z`.
  static func seconds(_ text: String) -> Double? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)?.timeIntervalSince1970
  }
}
