import Geodesy
import InputFiles
import Simulation

/// Collects the points a reader finds, in tracks, and the problems it finds, then decides which
/// points make the route.
///
/// Every format reads into this, so the rules are the same for all of them:
/// - Points come in tracks (a GPX `trk` or `rte`, a KML `LineString` or `gx:Track`, the rows of a
///   CSV file, a GeoJSON line). A track whose points are partly timed and partly untimed is an
///   error. Empty tracks are skipped.
/// - When some tracks are timed, only the timed ones make the route, joined in file order: a file
///   with both is usually a device's log beside an untimed, simplified copy of it. Otherwise every
///   track is joined in order.
/// - Waypoints (GPX `wpt`, KML or GeoJSON points without a time) make the route only when the
///   file has no track point at all.
/// - The times of the route never go backwards. Of points with the same time, the first is kept
///   and the others dropped, so the route is never in two places at one instant.
/// - One point is a route: the receiver stays there. No point at all is an error.
struct RouteBuilder {
  /// Where a point was found: a line, or an index that `describe` turns into a location.
  typealias Origin = Int

  private struct Track {
    var points = ChunkedArray<RoutePoint>()
    var origins = ChunkedArray<Origin>()
    var timedCount = 0
    var firstMismatch: Origin?
    var name: String?
  }

  let file: String
  /// Turns an origin into a location; by default the origin is a line number.
  let describe: (Origin) -> InputLocation
  private var tracks: [Track] = []
  private var waypoints = Track()
  private var diagnostics: [(origin: Origin, diagnostic: InputDiagnostic)] = []
  /// The points kept so far, in tracks and waypoints.
  private var pointCount = 0
  /// The most points kept: `RouteFile.pointLimit`.
  private let pointLimit = RouteFile.pointLimit
  /// Set once a point past `RouteFile.maximumPoints` was found: reading stops.
  private var tooManyPoints = false

  init(file: String, describe: ((Origin) -> InputLocation)? = nil) {
    self.file = file
    self.describe = describe ?? { InputLocation(file: file, line: $0) }
  }

  /// True once the reader has found as many problems as it reports, or more points than a
  /// route holds: it may stop reading.
  var isFull: Bool { tooManyPoints || diagnostics.count >= InputFileError.diagnosticLimit }

  /// Records a problem found at `origin`.
  mutating func report(_ message: String, at origin: Origin) {
    guard !isFull else { return }
    diagnostics.append((origin, InputDiagnostic(describe(origin), message)))
  }

  /// Records a problem whose location is already known (libxml2's or JSON's own errors).
  mutating func report(_ diagnostic: InputDiagnostic, order origin: Origin) {
    guard !isFull else { return }
    diagnostics.append((origin, diagnostic))
  }

  /// Names the current track, unless it has a name already. The route is named after the first
  /// named track it is made of, or else the first named track of the file.
  mutating func offerName(_ text: String) {
    let trimmed = text.trimmingWhitespace
    guard let last = tracks.indices.last, tracks[last].name == nil, !trimmed.isEmpty else { return }
    tracks[last].name = trimmed
  }

  /// Starts a new track; the points added next belong to it.
  mutating func beginTrack() {
    tracks.append(Track())
  }

  /// The index of the track being filled, to add to it again later (`add(_:to:)`).
  var currentTrack: Int? { tracks.indices.last }

  /// Checks and adds one point to the current track (or a new one), or to the waypoints.
  mutating func addPoint(
    latitude: Double, longitude: Double, altitude: Double?, time: UTCInstant?, at origin: Origin,
    waypoint: Bool = false
  ) {
    if !waypoint, tracks.isEmpty { beginTrack() }
    addPoint(
      latitude: latitude, longitude: longitude, altitude: altitude, time: time, at: origin,
      track: waypoint ? nil : tracks.count - 1)
  }

  /// Checks and adds one point to the given track, or to the waypoints when `track` is nil.
  mutating func addPoint(
    latitude: Double, longitude: Double, altitude: Double?, time: UTCInstant?, at origin: Origin,
    track: Int?
  ) {
    let position: GeodeticPosition
    do {
      position = try GeodeticPosition(
        latitude: latitude, longitude: longitude, altitudeMeters: altitude ?? 0)
    } catch {
      report(error.description, at: origin)
      return
    }
    if let problem = time?.playableRangeProblem {
      report(problem, at: origin)
      return
    }
    guard pointCount < pointLimit else {
      if !tooManyPoints {
        report(
          "more than \(pointLimit) points: a route holds at most \(pointLimit); thin the track"
            + " (gpsbabel -x simplify) or split it", at: origin)
        tooManyPoints = true
      }
      return
    }
    pointCount += 1
    let point = RoutePoint(position: position, time: time)
    if let track {
      Self.append(point, at: origin, to: &tracks[track])
    } else {
      Self.append(point, at: origin, to: &waypoints)
    }
  }

  private static func append(_ point: RoutePoint, at origin: Origin, to track: inout Track) {
    if let first = track.points.first, (first.time == nil) != (point.time == nil),
      track.firstMismatch == nil
    {
      track.firstMismatch = origin
    }
    if point.time != nil { track.timedCount += 1 }
    track.points.append(point)
    track.origins.append(origin)
  }

  /// The route, or every problem found in file order.
  ///
  /// - Parameter emptyMessage: what to say when the file has no point, naming what was expected.
  consuming func finish(emptyMessage: String) throws(InputFileError) -> Route {
    // The tracks leave `self`, so their point buffers are moved into the route, not copied.
    var tracks = self.tracks.filter { !$0.points.isEmpty }
    self.tracks = []
    for track in tracks {
      if let mismatch = track.firstMismatch {
        let untimed = track.points.count - track.timedCount
        report(
          "track mixes \(track.timedCount) timed and \(untimed) untimed points: every point of a"
            + " track needs a time, or none", at: mismatch)
      }
    }
    let timed = tracks.indices.filter { tracks[$0].timedCount > 0 }
    let chosen = timed.isEmpty ? Array(tracks.indices) : timed
    if chosen.isEmpty {
      if let mismatch = waypoints.firstMismatch {
        report(
          "waypoints mix timed and untimed points: every waypoint needs a time, or none",
          at: mismatch)
      }
      tracks = [waypoints]
      waypoints = Track()
    }
    let name =
      chosen.lazy.compactMap { tracks[$0].name }.first ?? tracks.lazy.compactMap(\.name).first
    var points: [RoutePoint] = []
    var origins: [Origin] = []
    let joined = chosen.isEmpty ? [0] : chosen
    points.reserveCapacity(joined.reduce(0) { $0 + tracks[$1].points.count })
    for index in joined {
      tracks[index].points.moveAll(appendingTo: &points)
      // Only a timed route needs the origins, to report times that go backwards.
      if points.first?.time != nil { tracks[index].origins.moveAll(appendingTo: &origins) }
      tracks[index] = Track()
    }
    if points.isEmpty, diagnostics.isEmpty {
      report(InputDiagnostic(InputLocation(file: file), "no points: \(emptyMessage)"), order: 0)
    }
    dropEqualTimes(&points, origins: origins)
    guard diagnostics.isEmpty else {
      let ordered = diagnostics.enumerated().sorted {
        ($0.element.origin, $0.offset) < ($1.element.origin, $1.offset)
      }
      throw .invalid(ordered.map(\.element.diagnostic))
    }
    return Route(points: points, name: name)
  }

  /// Reports times that go backwards and drops points whose time equals the previous one's,
  /// in place.
  private mutating func dropEqualTimes(_ points: inout [RoutePoint], origins: [Origin]) {
    guard points.first?.time != nil else { return }
    var kept = 0
    for index in points.indices {
      guard let time = points[index].time, kept > 0, let previous = points[kept - 1].time else {
        points[kept] = points[index]
        kept += 1
        continue
      }
      if time < previous {
        report("time \(time) is before the previous point's \(previous)", at: origins[index])
      } else if time > previous {
        points[kept] = points[index]
        kept += 1
      }
    }
    points.removeSubrange(kept...)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line ends (all ASCII, so the bytes
  /// are looked at, not the characters).
  var trimmingWhitespace: String {
    let bytes = Substring(self).utf8
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard let start = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: bytes[start...last], as: UTF8.self)
  }
}
