import Foundation
import Geodesy

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
