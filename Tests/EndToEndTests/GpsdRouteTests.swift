import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// Routes and scenarios through the real gpsd: what gpsd reports is checked against independent
/// oracles (gpxpy and GeographicLib in `Tests/Tools/track_oracle.py`).
@Suite(.blocking, .serialized) struct GpsdRouteTests {
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
    let stolen = try StealWatch.start()
    defer { stolen.stop() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: true, reports: 150)
    defer { gpsd.stop() }
    // gpsd may report an epoch more than once while it learns which sentence ends a cycle:
    // the last report of each time counts, and a first report without a time not at all.
    var fixes: [[String: Any]] = []
    for report in gpsd.reports("TPV", within: 40)
    where (report["mode"] as? Int ?? 0) >= 2 && report["time"] != nil {
      if let last = fixes.last, last["time"] as? String == report["time"] as? String {
        fixes.removeLast()
      }
      fixes.append(report)
    }
    #expect(fixes.count >= 50, "\(gpsd.transcript)")
    // Ten epochs a wall second, each a simulated second after the one before.
    let times = fixes.compactMap { ($0["time"] as? String).flatMap(Self.seconds) }
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }
    // But where mockgps let an epoch go late or cut it (its closing line counts them), which it
    // does only when the hypervisor took its CPU for more than half the 100 ms wire period
    // (`StealWatch`; seen here: 1 to 5 of 80 with two busy loops beside).
    gpsd.stop()
    emulator.kill()
    let late = MockGPSBinary.epochsLateOrCut(emulator.standardError)
    let missing = steps.reduce(0) { $0 + $1.rounded() - 1 }
    #expect(
      steps.allSatisfy { $0 >= 0.999 && abs($0 - $0.rounded()) <= 0.001 } && Int(missing) <= late,
      "steps between fixes: \(steps)\n\(emulator.standardError)")
    #expect(
      stolen.explains(late, lateBeyondNanoseconds: 50_000_000),
      "\(late) epochs late or cut, \(stolen.milliseconds) ms of CPU stolen")
    let comparison = try Self.oracle(fixes)
    #expect(comparison.compared == fixes.count, "not compared: \(comparison.skipped)")
    #expect(comparison.maxDistance < 1, "\(comparison)")
    #expect(comparison.maxSpeedError < 0.5, "\(comparison)")
    #expect(comparison.first.hasPrefix("2017-07-29T14:4"), "\(comparison)")
  }

  @Test(.enabled(if: GpsdSession.runnable))
  func aScenariosFixLossRecoveryAndJumpShowInGpsdsReports() throws {
    let directory = try ScratchDirectory("gpsd-scenario")
    defer { directory.remove() }
    let scenario = directory.path + "/scenario.json"
    try """
    {"start": {"time": "2024-07-01T12:00:00Z", "position": [46.0569, 14.5058, 295]},
     "timeline": [
       {"at": 0, "do": "hold"},
       {"at": 20, "do": "fix", "mode": "none", "for": 8},
       {"at": 40, "do": "jump", "north": 30}]}
    """.write(toFile: scenario, atomically: true, encoding: .utf8)
    let link = directory.path + "/ttyMOCKGPS"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--scenario", scenario, "--time-scale", "4", "--baud", "38400",
    ])
    defer { emulator.kill() }
    let gpsd = try GpsdSession(device: link, directory: directory, readOnly: true, reports: 170)
    defer { gpsd.stop() }
    let reports = gpsd.reports("TPV", within: 40).filter { $0["time"] != nil }
    // Simulated seconds after the start, and the mode gpsd reported then.
    let timeline = reports.compactMap { report -> (second: Int, report: [String: Any])? in
      guard let time = (report["time"] as? String).flatMap(Self.seconds) else { return nil }
      return (Int((time - 1_719_835_200).rounded()), report)
    }
    let modes = timeline.map { ($0.second, $0.report["mode"] as? Int ?? 0) }
    #expect(modes.contains { $0.0 < 20 && $0.1 == 3 }, "\(modes)")
    #expect(modes.filter { (21..<28).contains($0.0) }.allSatisfy { $0.1 == 1 }, "\(modes)")
    #expect(modes.contains { (21..<28).contains($0.0) }, "\(modes)")
    #expect(modes.filter { (29..<45).contains($0.0) }.allSatisfy { $0.1 == 3 }, "\(modes)")
    // Holding still, the fixes step only at the jump, by its 30 m.
    let fixes = timeline.filter { $0.report["mode"] as? Int == 3 }
    var steps: [(second: Int, meters: Double)] = []
    for (a, b) in zip(fixes, fixes.dropFirst()) where b.second == a.second + 1 {
      steps.append((b.second, Self.meters(a.report, b.report)))
    }
    let jump = try #require(steps.first { $0.second == 40 }, "no fixes at 39 and 40 s: \(modes)")
    #expect(abs(jump.meters - 30) < 0.5, "\(steps)")
    #expect(steps.filter { $0.second != 40 }.allSatisfy { $0.meters < 0.05 }, "\(steps)")
  }

  /// The distance between two reports' positions, haversine on a sphere of the mean radius
  /// (good to 0.5 %, plenty for 30 m).
  static func meters(_ a: [String: Any], _ b: [String: Any]) -> Double {
    let radians = Double.pi / 180
    let (lat1, lon1) = ((a["lat"] as? Double ?? 0) * radians, (a["lon"] as? Double ?? 0) * radians)
    let (lat2, lon2) = ((b["lat"] as? Double ?? 0) * radians, (b["lon"] as? Double ?? 0) * radians)
    let h =
      pow(sin((lat2 - lat1) / 2), 2) + cos(lat1) * cos(lat2) * pow(sin((lon2 - lon1) / 2), 2)
    return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
  }

  /// What the oracle found.
  struct Comparison: CustomStringConvertible {
    var compared: Int
    var maxDistance: Double
    var maxSpeedError: Double
    var first: String
    var skipped: String
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
      first: result["first"] as? String ?? "",
      skipped: "\(result["skipped"] ?? "")")
  }

  /// Seconds since 1970 of gpsd's `2017-07-29T14:46:35.000Z`.
  static func seconds(_ text: String) -> Double? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)?.timeIntervalSince1970
  }
}
