import Geodesy
import Glibc
import NMEA
import Replay
import RouteFiles
import Simulation

/// `mockgps check FILE`: reads a route, scenario, almanac or config of devices the way `run`
/// does (`ScriptFileKind.detect` tells which, for both) and reports every error, or one line
/// saying what the file holds. A log (`--replay`) gets a warning per malformed
/// packet and a summary; it is valid when it holds something to replay.
enum CheckCommand {
  static func execute(path: String) -> Int32 {
    let kind = ScriptFileKind.detect(path: path) ?? .route
    if kind == .config {
      do {
        print("\(path): \(try DeviceConfig.load(path: path).summary)")
        return ExitCode.success
      } catch {
        RunCommand.writeError(error.text)
        return error.code
      }
    }
    do {
      if LogCheck.hasLogExtension(path) || (kind == .route && LogCheck.startsAsLog(path: path)) {
        let check = try LogCheck(path: path)
        for warning in check.warnings { RunCommand.writeError("mockgps: \(warning)\n") }
        if check.unreportedWarnings > 0 {
          RunCommand.writeError("mockgps: \(path): \(check.unreportedWarnings) more problems\n")
        }
        print("\(path): \(LogSummary(check).text)")
        return ExitCode.success
      }
      switch kind {
      case .route:
        print("\(path): \(summary(of: try RouteFile.load(path: path)))")
      case .scenario:
        print("\(path): \(summary(of: try ScenarioFile.load(path: path)))")
      case .almanac:
        print("\(path): \(summary(of: try AlmanacFile.load(path: path)))")
      case .config:
        break
      }
      return ExitCode.success
    } catch {
      RunCommand.writeError(error.description + "\n")
      return error.exitCode
    }
  }

  /// `scenario from 2024-07-01T12:00:00Z, 7 events over 95 s, seed 1`.
  static func summary(of scenario: Scenario) -> String {
    let last = scenario.timeline.last?.at ?? scenario.startTime
    let seconds = (last.nanoseconds - scenario.startTime.nanoseconds) / 1_000_000_000
    let events = scenario.timeline.count
    return "scenario from \(scenario.startTime), \(events) event\(events == 1 ? "" : "s") "
      + "over \(seconds) s, seed \(scenario.seed)"
  }

  /// `YUMA almanac, 31 satellites, week 149 (mod 1024), toa 405504 s, unhealthy PRNs 11`.
  static func summary(of almanac: [AlmanacEntry]) -> String {
    let weeks = Set(almanac.map(\.week)).sorted().map(String.init).joined(separator: ", ")
    let times = Set(almanac.map { Int($0.timeOfApplicabilitySeconds) }).sorted()
      .map(String.init).joined(separator: ", ")
    let unhealthy = almanac.filter { !$0.isHealthy }.map { String($0.prn) }
    return "YUMA almanac, \(almanac.count) satellite\(almanac.count == 1 ? "" : "s"), "
      + "week \(weeks) (mod 1024), toa \(times) s, unhealthy PRNs "
      + (unhealthy.isEmpty ? "none" : unhealthy.joined(separator: " "))
  }

  /// `track 'Morning run', 988 points, 12.345 km, 2017-07-29T14:46:35Z to 2017-07-29T16:18:13Z`.
  static func summary(of route: Route) -> String {
    var length = 0.0
    for (a, b) in zip(route.points, route.points.dropFirst()) {
      length += Geodesic.wgs84.inverse(from: a.position, to: b.position).distanceMeters
    }
    var text =
      "\(route.isTimed ? "track" : "route")\(route.name.map { " '\($0)'" } ?? ""), "
      + "\(route.points.count) point\(route.points.count == 1 ? "" : "s"), "
      + "\(kilometers(length)) km"
    if route.isTimed, let first = route.points.first?.time, let last = route.points.last?.time {
      text += ", \(first) to \(last)"
    }
    return text
  }

  /// Meters as kilometers with three decimals.
  static func kilometers(_ meters: Double) -> String {
    NMEADecimal(units: Int64(meters.rounded()), fractionDigits: 3).description
  }
}
