import Geodesy
import Wire

#if canImport(Glibc)
  import Glibc
#endif

/// Where a passed-through receiver's real positions go under an override: one rule at a time,
/// set by `PassthroughRewriter` before each chunk, while what must outlive a change of rule or
/// a reconnect (the track's origin, the last real position) stays here.
struct OverrideMapping: PositionMapping, Sendable {
  /// How a real position is mapped.
  enum Rule: Sendable {
    /// Every position is this one.
    case constant(GeodeticPosition)
    /// Every position is the first real one met from now on (a freeze before any fix).
    case holdFirst
    /// The real track moved so that its first position lands on a destination.
    case track
    /// Every position moved this many meters north and east.
    case offset(northMeters: Double, eastMeters: Double)
  }

  var rule: Rule = .holdFirst
  /// The mover of `.track`; kept while its destination stays the same.
  var trackMover: TrackMover?
  /// The altitude above mean sea level that replaces the real one, or nil to keep it.
  var replacedAltitude: Double?
  /// The geoid separation the receiver last reported (height above the ellipsoid minus above
  /// mean sea level), which turns a real ECEF height into its altitude; nil before one came.
  var geoidSeparationMeters: Double?
  /// The last real position met.
  var lastReal: GeodeticPosition?
  var lastMove: (from: GeodeticPosition, to: GeodeticPosition)?

  /// True when the rule moves a track (offsets), so that waypoints move with it; false when
  /// it puts the receiver at one place.
  var movesWaypoints: Bool {
    switch rule {
    case .track, .offset: return true
    case .constant, .holdFirst: return false
    }
  }

  mutating func moved(latitude: Double, longitude: Double) -> GeodeticPosition {
    let real = GeodeticPosition(known: latitude, longitude)
    lastReal = real
    let result: GeodeticPosition
    switch rule {
    case .constant(let position):
      result = position
    case .holdFirst:
      result = real
      rule = .constant(real)
    case .track:
      result = trackMover?.moved(latitude: latitude, longitude: longitude) ?? real
    case .offset(let north, let east):
      let moved = Geodesic.wgs84.direct(
        from: real, azimuthDegrees: atan2(east, north) * 180 / .pi,
        distanceMeters: (north * north + east * east).squareRoot()
      ).position
      result = GeodeticPosition(known: moved.latitude, moved.longitude)
    }
    lastMove = (real, result)
    return result
  }

  /// The geoid model heights are written with at the overriding place.
  static let geoid = EGM96Geoid()

  /// The geoid separation at a place, as EGM96 gives it.
  static func separation(at place: GeodeticPosition) -> Double {
    geoid.separationMeters(latitude: place.latitude, longitude: place.longitude)
  }

  /// The height above the ellipsoid at the last place moved to, for a real one at the last real
  /// place: the altitude above mean sea level (the replaced one, or the real one through the
  /// receiver's own separation, EGM96's before it gave one) plus EGM96's separation there.
  func movedHeight(_ realHeight: Double) -> Double {
    guard let (from, to) = lastMove else { return realHeight }
    let altitude =
      replacedAltitude ?? realHeight - (geoidSeparationMeters ?? Self.separation(at: from))
    return altitude + Self.separation(at: to)
  }
}
