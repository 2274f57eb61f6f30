import Geodesy
import Glibc
import RouteFiles
import Simulation

/// `mockgps check FILE`: reads a route or scenario the way `run` does and reports every error,
/// or one line saying what the file holds.
enum CheckCommand {
  static func execute(path: String) -> Int32 {
    do {
      let route = try RouteFile.load(path: path)
      print("\(path): \(summary(of: route))")
      return ExitCode.success
    } catch {
      RunCommand.writeError(error.description + "\n")
      return error.exitCode
    }
  }

  /// `route, 1234 points, 12.345 km, timed 2024-07-01T12:00:00Z to 2024-07-01T12:41:10Z`.
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
    let whole = Int((meters).rounded())
    let fraction = String(whole % 1000)
    return "\(whole / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}
