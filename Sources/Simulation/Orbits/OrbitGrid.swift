import Geodesy
import Synchronization

/// Satellite positions on a coarse time grid, computed once per grid point and shared: between
/// two points a satellite's ECEF position is interpolated linearly. Over 30 s a GPS satellite's
/// chord strays about 60 m from its arc, a few millionths of a degree seen from the ground.
///
/// The grid points are pure functions of the orbits, so whether the cache is warm or cold never
/// changes an answer; the `Mutex` only lets several threads share the work.
final class OrbitGrid: Sendable {
  /// Grid spacing, nanoseconds of GPS time.
  static let spacingNanoseconds: Int64 = 30 * UTCInstant.nanosecondsPerSecond
  /// How many grid points stay cached (two bracket an epoch; the rest serve other threads).
  static let cachedPointCount = 4

  private struct Point {
    var index: Int64
    var positions: [EarthCenteredPosition]
  }

  let orbits: [KeplerianOrbit]
  private let points = Mutex<[Point]>([])

  init(orbits: [KeplerianOrbit]) {
    self.orbits = orbits
  }

  /// The positions of every orbit, in order, at `gpsNanoseconds` since the GPS epoch (not
  /// negative).
  func positions(atGPSNanoseconds gpsNanoseconds: Int64) -> [EarthCenteredPosition] {
    let index = gpsNanoseconds / Self.spacingNanoseconds
    let fraction =
      Double(gpsNanoseconds - index * Self.spacingNanoseconds)
      / Double(Self.spacingNanoseconds)
    let (before, after) = points.withLock { points in
      (
        Self.point(index, in: &points, orbits: orbits),
        Self.point(index + 1, in: &points, orbits: orbits)
      )
    }
    var positions: [EarthCenteredPosition] = []
    positions.reserveCapacity(before.count)
    for i in before.indices {
      let a = before[i]
      let b = after[i]
      positions.append(
        EarthCenteredPosition(
          x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction,
          z: a.z + (b.z - a.z) * fraction))
    }
    return positions
  }

  private static func point(
    _ index: Int64, in points: inout [Point], orbits: [KeplerianOrbit]
  ) -> [EarthCenteredPosition] {
    if let cached = points.first(where: { $0.index == index }) { return cached.positions }
    let seconds = Double(index * spacingNanoseconds) / 1e9
    let positions = orbits.map { $0.position(atGPSSeconds: seconds) }
    if points.count >= cachedPointCount { points.removeFirst() }
    points.append(Point(index: index, positions: positions))
    return positions
  }
}
