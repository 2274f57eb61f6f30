import Geodesy

/// Moves a track so that its first position lands on a destination, keeping its shape: every
/// position P goes to the point at the same geodesic distance and azimuth from the destination
/// as P is from the track's first position (the origin).
///
/// Distances and azimuths from the origin are kept exactly; what is not kept, over long moves,
/// is the direction of the meridians: north at a point 10 km from the origin turns by the
/// meridian convergence (Δλ·sin φ), which differs between the two places. Speeds and courses
/// are left as recorded, so a recorded course and the moved track's own direction differ by
/// that much: 0.26° at the end of a 10 km east-west track moved 5000 km from 45° N to 76° N
/// (measured in `ReplayRewriterMoveTests`; (10 km / R)·(tan 76° − tan 45°)), less than a
/// consumer receiver's course noise while moving, and nothing for tracks of a few kilometres.
///
/// Each move costs one inverse and one direct geodesic (3–6 µs); the last few positions moved
/// are remembered, since a receiver writes the same position in several sentences of an epoch.
package struct TrackMover: PositionMapping, Sendable {
  /// Where the origin goes.
  package let destination: GeodeticPosition
  /// The first position met, once one has been.
  package private(set) var origin: GeodeticPosition?
  /// The last position moved, before and after (for rotating velocities).
  package private(set) var lastMove: (from: GeodeticPosition, to: GeodeticPosition)?

  private var recent: [(latitude: Double, longitude: Double, moved: GeodeticPosition)] = []
  private var nextSlot = 0
  private static let remembered = 8

  /// Creates a mover with no origin yet.
  package init(destination: GeodeticPosition) {
    self.destination = destination
  }

  /// Where a position (degrees, in range) goes; the first one asked for becomes the origin.
  package mutating func moved(latitude: Double, longitude: Double) -> GeodeticPosition {
    if let hit = recent.first(where: { $0.latitude == latitude && $0.longitude == longitude }) {
      lastMove = (GeodeticPosition(known: latitude, longitude), hit.moved)
      return hit.moved
    }
    let position = GeodeticPosition(known: latitude, longitude)
    let origin = self.origin ?? position
    self.origin = origin
    let leg = Geodesic.wgs84.inverse(from: origin, to: position)
    let moved = Geodesic.wgs84.direct(
      from: destination, azimuthDegrees: leg.initialAzimuthDegrees,
      distanceMeters: leg.distanceMeters
    ).position
    let result = GeodeticPosition(known: moved.latitude, moved.longitude)
    if recent.count < Self.remembered {
      recent.append((latitude, longitude, result))
    } else {
      recent[nextSlot] = (latitude, longitude, result)
      nextSlot = (nextSlot + 1) % Self.remembered
    }
    lastMove = (position, result)
    return result
  }
}
