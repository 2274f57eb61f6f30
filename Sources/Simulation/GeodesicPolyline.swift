import Geodesy

/// A polyline of geodesic segments with its lengths and azimuths worked out once, so that a
/// point at a distance along it costs one binary search and one direct geodesic.
struct GeodesicPolyline: Sendable {
  /// The points joined, at least one.
  let vertices: [GeodeticPosition]
  /// The distance along the polyline of each vertex, meters; the first is 0.
  let vertexDistances: [Double]
  /// The inverse solution of each segment, from `vertices[i]` to `vertices[i + 1]`.
  let segments: [GeodesicInverse]

  /// Joins `vertices` (at least one) with geodesics.
  init(_ vertices: [GeodeticPosition]) {
    precondition(!vertices.isEmpty, "a polyline needs a point")
    var segments: [GeodesicInverse] = []
    var distances: [Double] = [0]
    segments.reserveCapacity(vertices.count - 1)
    for (a, b) in zip(vertices, vertices.dropFirst()) {
      let segment = Geodesic.wgs84.inverse(from: a, to: b)
      segments.append(segment)
      distances.append(distances[distances.count - 1] + segment.distanceMeters)
    }
    self.vertices = vertices
    self.vertexDistances = distances
    self.segments = segments
  }

  /// The total length, meters.
  var length: Double { vertexDistances[vertexDistances.count - 1] }

  /// The segment that holds the point `distance` meters along (the later one at a vertex,
  /// the last one at the end); requires at least one segment.
  func segmentIndex(atDistance distance: Double) -> Int {
    min(max(vertexDistances.lastIndex(notAfter: distance), 0), segments.count - 1)
  }

  /// The point `offset` meters along segment `index`, its altitude interpolated linearly, and
  /// the azimuth of the geodesic there. The ends of a segment (within a nanometer) are its
  /// vertices exactly.
  func point(
    onSegment index: Int, offset: Double
  ) -> (position: GeodeticPosition, azimuthDegrees: Double) {
    let segment = segments[index]
    let start = vertices[index]
    if offset <= 0 {
      return (start, segment.initialAzimuthDegrees)
    }
    if offset >= segment.distanceMeters - 1e-9 {
      return (vertices[index + 1], segment.finalAzimuthDegrees)
    }
    var point = Geodesic.wgs84.direct(
      from: start, azimuthDegrees: segment.initialAzimuthDegrees, distanceMeters: offset)
    let end = vertices[index + 1]
    point.position.altitudeMeters =
      start.altitudeMeters
      + (end.altitudeMeters - start.altitudeMeters) * offset / segment.distanceMeters
    return (point.position, point.finalAzimuthDegrees)
  }

  /// The altitude gained per meter along segment `index` (0 on a segment of no length).
  func grade(ofSegment index: Int) -> Double {
    let length = segments[index].distanceMeters
    guard length > 0 else { return 0 }
    return (vertices[index + 1].altitudeMeters - vertices[index].altitudeMeters) / length
  }
}

extension Array where Element: Comparable {
  /// The index of the last element not after `value` in this ascending array, or -1 when every
  /// element is after it. A binary search: O(log n), no allocation.
  func lastIndex(notAfter value: Element) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] <= value { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }
}
