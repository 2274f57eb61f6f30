import Geodesy
import Synchronization

/// Satellite positions on a coarse time grid, computed once per grid point and shared: between
/// two points a satellite's ECEF position is interpolated linearly. Over 60 s a GPS satellite's
/// chord strays about 250 m from its arc: under 0.001° seen from 20,000 km.
///
/// The grid points are pure functions of the orbits, so whether the cache is warm or cold never
/// changes an answer; the `Mutex` only lets several threads share the work.
final class OrbitGrid: Sendable {
  /// Grid spacing, nanoseconds of GPS time.
  static let spacingNanoseconds: Int64 = 60 * UTCInstant.nanosecondsPerSecond
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

  /// The grid points either side of `gpsNanoseconds` since the GPS epoch (not negative), each
  /// with every orbit's position in order, and how far between them the moment lies (0 up to
  /// but excluding 1). Position i at the moment is before[i] + (after[i] − before[i]) × fraction.
  func bracket(atGPSNanoseconds gpsNanoseconds: Int64) -> (
    before: [EarthCenteredPosition], after: [EarthCenteredPosition], fraction: Double
  ) {
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
    return (before, after, fraction)
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
