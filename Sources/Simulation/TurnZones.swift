/// Where a driven vehicle turns, and how fast it may go there.
///
/// Each vertex where the course changes by Δθ gets a turn zone: the last `before` meters of the
/// segment arriving and the first `after` meters of the segment leaving, each at most
/// `RouteDriving.turnZoneHalfLengthMeters` and half its segment, so zones never overlap. The
/// reported course turns linearly over the zone's length d = before + after, and the speed in
/// the whole zone is at most d·ω/|Δθ|, so the turn takes at least |Δθ|/ω seconds.
struct TurnZones: Sendable {
  struct Zone: Sendable {
    /// The signed course change, degrees, positive clockwise.
    var turnDegrees = 0.0
    /// The zone's meters on the arriving segment.
    var before = 0.0
    /// The zone's meters on the leaving segment.
    var after = 0.0
    /// The highest speed in the zone, meters per second.
    var speedLimit = Double.infinity

    var length: Double { before + after }
  }

  /// How a polyline's first vertex is entered, or its last one left, from outside it.
  struct Joint: Sendable {
    /// The course arriving at the first vertex, or leaving the last.
    var courseDegrees: Double
    /// The zone's meters outside the polyline (before the start, or after the end).
    var outsideMeters: Double
  }

  /// One zone per vertex; a vertex where the course does not change has an empty zone.
  let zones: [Zone]

  /// Places the zones of `polyline`, with a turn at its start from `entry` and at its end onto
  /// `exit` when they are given.
  init(
    polyline: GeodesicPolyline, turnRateDegreesPerSecond: Double, halfLength: Double,
    entry: Joint?, exit: Joint?
  ) {
    let segments = polyline.segments
    zones = polyline.vertices.indices.map { vertex in
      let arriving = vertex > 0 ? segments[vertex - 1].finalAzimuthDegrees : entry?.courseDegrees
      let leaving =
        vertex < segments.count ? segments[vertex].initialAzimuthDegrees : exit?.courseDegrees
      guard let arriving, let leaving else { return Zone() }
      let turn = Self.turn(from: arriving, to: leaving)
      let before =
        vertex > 0
        ? min(halfLength, segments[vertex - 1].distanceMeters / 2) : entry?.outsideMeters ?? 0
      let after =
        vertex < segments.count
        ? min(halfLength, segments[vertex].distanceMeters / 2) : exit?.outsideMeters ?? 0
      guard abs(turn) > 1e-9, before + after > 0 else { return Zone() }
      return Zone(
        turnDegrees: turn, before: before, after: after,
        speedLimit: (before + after) * turnRateDegreesPerSecond / abs(turn))
    }
  }

  /// The course reported `offset` meters along segment `index`, where the geodesic's own
  /// azimuth is `azimuth`: the azimuth, turned by the share of any zone's turn not yet done
  /// (leaving a vertex) or already done (approaching one).
  func course(onSegment index: Int, offset: Double, length: Double, azimuth: Double) -> Double {
    let leaving = zones[index]
    if leaving.length > 0, offset < leaving.after {
      return Self.normalized(
        azimuth - leaving.turnDegrees * (leaving.after - offset) / leaving.length)
    }
    let arriving = zones[index + 1]
    let remaining = length - offset
    if arriving.length > 0, remaining < arriving.before {
      return Self.normalized(
        azimuth + arriving.turnDegrees * (arriving.before - remaining) / arriving.length)
    }
    return azimuth
  }

  /// The speed limits along the polyline as intervals: `boundaries` from 0 to the length and a
  /// limit for each interval between them (`cruise` outside zones).
  func speedLimits(
    along polyline: GeodesicPolyline, cruise: Double
  ) -> (boundaries: [Double], limits: [Double]) {
    var boundaries: [Double] = [0]
    var limits: [Double] = []
    func add(upTo end: Double, limit: Double) {
      guard end > boundaries[boundaries.count - 1] else { return }
      boundaries.append(end)
      limits.append(min(cruise, limit))
    }
    for (index, segment) in polyline.segments.enumerated() {
      let start = polyline.vertexDistances[index]
      let end = start + segment.distanceMeters
      add(upTo: start + zones[index].after, limit: zones[index].speedLimit)
      add(upTo: end - zones[index + 1].before, limit: cruise)
      add(upTo: end, limit: zones[index + 1].speedLimit)
    }
    return (boundaries, limits)
  }

  /// Degrees in 0..<360.
  static func normalized(_ degrees: Double) -> Double {
    let wrapped = degrees.truncatingRemainder(dividingBy: 360)
    return wrapped < 0 ? wrapped + 360 : (wrapped >= 360 ? 0 : wrapped)
  }

  /// The turn from azimuth `a` to azimuth `b`, degrees in -180...180, positive clockwise.
  static func turn(from a: Double, to b: Double) -> Double {
    let turn = normalized(b - a)
    return turn > 180 ? turn - 360 : turn
  }
}
