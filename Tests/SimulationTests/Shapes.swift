import Geodesy
import Simulation

/// Test shapes, each a list of positions.
enum Shapes {
  static func point(_ latitude: Double, _ longitude: Double) -> GeodeticPosition {
    GeodeticPosition(known: latitude, longitude)
  }

  /// A square of 200 m sides near Greenwich, corners of 90°.
  static let square = [
    point(51.4779, -0.0015), point(51.479698, -0.0015), point(51.479698, 0.001386),
    point(51.4779, 0.001386), point(51.4779, -0.0015),
  ]

  /// Out 300 m and back along the same line: a 180° turn.
  static let hairpin = [point(45, 7), point(45.0027, 7), point(45, 7)]

  /// Due east across the antimeridian, 2.2 km, with a bend on the far side.
  static let antimeridian = [point(10, 179.99), point(10, -179.99), point(10.005, -179.985)]

  /// A triangle round the North Pole, corners 5.6 km from it: the geodesics' azimuths turn by
  /// up to 0.3°/s at car speed.
  static let nearPole = [point(89.95, 0), point(89.95, 120), point(89.95, -120), point(89.95, 0)]

  /// The real untimed trail loop, see `RealRouteData.swift`.
  static let ecologyTrail = ecologyTrailRoute.map { point($0.0, $0.1) }

  /// The real recorded run, see `RealRouteData.swift`.
  static let garminRun = garminActivityTrack.map { row in
    RoutePoint(
      position: GeodeticPosition(known: row.0, row.1, altitudeMeters: row.2),
      time: UTCInstant(nanosecondsSinceEpoch: row.3 * UTCInstant.nanosecondsPerSecond))
  }

  static func route(_ positions: [GeodeticPosition]) -> Route {
    Route(points: positions.map { RoutePoint(position: $0) })
  }
}
