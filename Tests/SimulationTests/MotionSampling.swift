import Foundation
import Geodesy
import Simulation

/// A motion's state at one instant.
struct MotionSample {
  var time: UTCInstant
  var state: MotionState
}

/// The states of `motion` every `1 / rate` seconds from `start` for `seconds`.
func samples(
  of motion: some Motion, from start: UTCInstant, seconds: Int, rate: Int
) -> [MotionSample] {
  let step = UTCInstant.nanosecondsPerSecond / Int64(rate)
  return (0...(seconds * rate)).map { index in
    let time = start.adding(nanoseconds: Int64(index) * step)
    return MotionSample(time: time, state: motion.state(at: time))
  }
}

/// The distance and initial azimuth from `a` to `b` on the ellipsoid.
func geodesic(_ a: GeodeticPosition, _ b: GeodeticPosition) -> GeodesicInverse {
  Geodesic.wgs84.inverse(from: a, to: b)
}

/// The turn from course `a` to course `b`, degrees in -180...180.
func turn(from a: Double, to b: Double) -> Double {
  var difference = (b - a).truncatingRemainder(dividingBy: 360)
  if difference > 180 { difference -= 360 }
  if difference < -180 { difference += 360 }
  return difference
}

/// Finds where successive positions lie on a polyline of geodesic segments, in the order of
/// travel, for checking that a motion stays on it and how far it went along it.
struct PolylineWalker {
  /// A place on the polyline.
  struct Place {
    var segment: Int
    var along: Double
    var crossTrack: Double
  }

  let vertices: [GeodeticPosition]
  let segments: [GeodesicInverse]
  let starts: [Double]
  let closed: Bool
  private(set) var place = Place(segment: 0, along: 0, crossTrack: 0)

  /// A walker at the start of the polyline through `vertices`; `closed` when its end joins its
  /// start (a loop, whose last vertex repeats the first).
  init(_ vertices: [GeodeticPosition], closed: Bool = false) {
    self.vertices = vertices
    segments = zip(vertices, vertices.dropFirst()).map { geodesic($0, $1) }
    var starts = [0.0]
    for segment in segments { starts.append(starts[starts.count - 1] + segment.distanceMeters) }
    self.starts = starts
    self.closed = closed
  }

  var length: Double { starts[starts.count - 1] }

  /// Where `position` is on segment `index`: the distance along it and off it, meters.
  func place(of position: GeodeticPosition, onSegment index: Int) -> Place {
    let toPoint = geodesic(vertices[index], position)
    let angle = turn(from: segments[index].initialAzimuthDegrees, to: toPoint.initialAzimuthDegrees)
    let radians = angle * .pi / 180
    return Place(
      segment: index, along: toPoint.distanceMeters * cos(radians),
      crossTrack: toPoint.distanceMeters * sin(radians))
  }

  /// Moves to `position`: of the places ahead (at most `reach` meters on) within 1 cm of the
  /// polyline, the one whose distance travelled is nearest `expected` (near a vertex where the
  /// path turns back on itself one position can lie on both segments). Returns the distance
  /// travelled along the polyline, or nil when `position` is not on it within that reach.
  mutating func advance(
    to position: GeodeticPosition, reach: Double, expected: Double = 0
  ) -> Double? {
    let here = starts[place.segment] + place.along
    var offset = 0.0
    var index = place.segment
    var best: (place: Place, travelled: Double)?
    for _ in 0..<(segments.count * 2) {
      if starts[index] + offset - here > reach { break }
      let candidate = self.place(of: position, onSegment: index)
      let travelled = starts[index] + offset + candidate.along - here
      if abs(candidate.crossTrack) < 0.01, candidate.along > -0.001,
        candidate.along < segments[index].distanceMeters + 0.001, travelled > -0.001,
        abs(travelled - expected) < abs((best?.travelled ?? .infinity) - expected)
      {
        best = (candidate, travelled)
      }
      index += 1
      if index == segments.count {
        guard closed else { break }
        index = 0
        offset += length
      }
    }
    guard let best else { return nil }
    place = best.place
    return best.travelled
  }
}

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
