/// The speed of a driven vehicle along a path: as fast as the speed limits allow, changing
/// speed at no more than a given acceleration.
///
/// The profile is a list of knots (distance, speed, time) with constant acceleration between
/// them, so both the distance at a time and the time at a distance are exact.
struct SpeedProfile: Sendable {
  /// Meters along the path of each knot; the first is 0.
  private let distances: [Double]
  /// The speed at each knot, meters per second.
  private let speeds: [Double]
  /// Seconds from the start of each knot; the first is 0.
  private let times: [Double]
  /// The acceleration from each knot to the next, meters per second squared.
  private let accelerations: [Double]

  /// Seconds from the start to the end.
  var duration: Double { times[times.count - 1] }
  /// The speed at the start.
  var startSpeed: Double { speeds[0] }
  /// The speed at the end.
  var endSpeed: Double { speeds[speeds.count - 1] }

  /// The fastest profile under `limits` (one per interval between `boundaries`, which run from
  /// 0 to the path's length) that starts at no more than `startSpeed`, ends at no more than
  /// `endSpeed`, and never accelerates or brakes harder than `acceleration`.
  init(
    boundaries: [Double], limits: [Double], startSpeed: Double, endSpeed: Double,
    acceleration: Double
  ) {
    let knots = Self.knotSpeeds(
      boundaries: boundaries, limits: limits, startSpeed: startSpeed, endSpeed: endSpeed,
      acceleration: acceleration)
    var distances = [0.0]
    var speeds = [knots[0]]
    func add(_ distance: Double, _ speed: Double) {
      guard distance > distances[distances.count - 1] else { return }
      distances.append(distance)
      speeds.append(speed)
    }
    for (index, limit) in limits.enumerated() {
      let (start, end) = (boundaries[index], boundaries[index + 1])
      let (entry, exit) = (knots[index], knots[index + 1])
      let cruiseFrom = start + (limit * limit - entry * entry) / (2 * acceleration)
      let cruiseTo = end - (limit * limit - exit * exit) / (2 * acceleration)
      if cruiseFrom <= cruiseTo {
        add(cruiseFrom, limit)
        add(cruiseTo, limit)
      } else {
        let peak = min(
          max((start + end) / 2 + (exit * exit - entry * entry) / (4 * acceleration), start), end)
        add(peak, (entry * entry + 2 * acceleration * (peak - start)).squareRoot())
      }
      add(end, exit)
    }
    var times = [0.0]
    var accelerations: [Double] = []
    for index in distances.indices.dropLast() {
      let length = distances[index + 1] - distances[index]
      let (from, to) = (speeds[index], speeds[index + 1])
      times.append(times[index] + (from + to > 0 ? 2 * length / (from + to) : 0))
      accelerations.append((to * to - from * from) / (2 * length))
    }
    self.distances = distances
    self.speeds = speeds
    self.times = times
    self.accelerations = accelerations
  }

  /// The speed at each boundary: capped by the limits on either side and by the start and end,
  /// then lowered by a forward pass (accelerating) and a backward pass (braking).
  static func knotSpeeds(
    boundaries: [Double], limits: [Double], startSpeed: Double, endSpeed: Double,
    acceleration: Double
  ) -> [Double] {
    var speeds = boundaries.indices.map { index in
      min(
        index > 0 ? limits[index - 1] : startSpeed,
        index < limits.count ? limits[index] : endSpeed)
    }
    for index in speeds.indices.dropFirst() {
      let gain = 2 * acceleration * (boundaries[index] - boundaries[index - 1])
      speeds[index] = min(
        speeds[index], (speeds[index - 1] * speeds[index - 1] + gain).squareRoot())
    }
    for index in speeds.indices.dropLast().reversed() {
      let gain = 2 * acceleration * (boundaries[index + 1] - boundaries[index])
      speeds[index] = min(
        speeds[index], (speeds[index + 1] * speeds[index + 1] + gain).squareRoot())
    }
    return speeds
  }

  /// The distance along the path and the speed `seconds` after the start (held at the ends).
  func sample(atSeconds seconds: Double) -> (distance: Double, speed: Double) {
    let knot = times.lastIndex(notAfter: seconds)
    if knot < 0 { return (0, speeds[0]) }
    if knot >= accelerations.count { return (distances[knot], speeds[knot]) }
    let elapsed = seconds - times[knot]
    let acceleration = accelerations[knot]
    let distance = distances[knot] + speeds[knot] * elapsed + acceleration * elapsed * elapsed / 2
    return (min(distance, distances[knot + 1]), max(speeds[knot] + acceleration * elapsed, 0))
  }
}
