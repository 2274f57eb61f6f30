import Geodesy

/// One point of a route or track: where, and when for a recorded track.
public struct RoutePoint: Hashable, Sendable {
  public var position: GeodeticPosition
  /// The time the point was recorded; nil in a planned route.
  public var time: UTCInstant?

  /// Creates a point.
  public init(position: GeodeticPosition, time: UTCInstant? = nil) {
    self.position = position
    self.time = time
  }
}

/// A path on the ellipsoid, as read from a route file: the points of every track, segment and
/// route of the file in order, joined into one polyline.
public struct Route: Hashable, Sendable {
  /// The points in order.
  public var points: [RoutePoint]
  /// The file's name for it, when it gives one.
  public var name: String?

  /// Creates a route.
  public init(points: [RoutePoint], name: String? = nil) {
    self.points = points
    self.name = name
  }

  /// True when every point has a time: the route is a recorded track that plays on its own
  /// timeline.
  public var isTimed: Bool { !points.isEmpty && points.allSatisfy { $0.time != nil } }
}
