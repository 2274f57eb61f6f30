/// A seeded first-order Gauss–Markov error: the slowly wandering position error of a real
/// receiver, the same for the same seed and time, asked for at any time in any order.
///
/// The process is sampled on the grid of whole simulated seconds. With φ = e^(−1/τ) for the time
/// constant τ, the value at second k is the truncated sum
///
///     x_k = σ·√(1−φ²) · Σ_{j=k−M…k} φ^(k−j)·w_j
///
/// where each w_j is a standard normal drawn from the seed and the instant of second j only
/// (`FaultRandomNumberGenerator(seed:time:)`), and M is the smallest count with φ^M < 10⁻⁶, so
/// the terms left out weigh less than a millionth. It is the stationary recursion
/// x_k = φ·x_{k−1} + σ·√(1−φ²)·w_k written out, so its standard deviation is σ and successive
/// seconds correlate by φ; but no state is kept, so the epoch source can be asked for any time.
/// Between grid seconds the value is interpolated linearly. A time constant of 0 gives white
/// noise on the grid.
public struct GaussMarkovNoise: Hashable, Sendable {
  /// The longest time constant accepted, seconds; longer ones are treated as this one, which
  /// keeps the sum at most about 8,300 terms.
  public static let maximumTimeConstantSeconds = 600.0

  /// The standard deviation of each horizontal axis, meters.
  public var sigmaMeters: Double
  /// How long the error takes to forget itself (to fall to 1/e), seconds.
  public var timeConstantSeconds: Double
  /// The seed the standard normals are drawn from.
  public var seed: UInt64

  /// Creates the process.
  public init(sigmaMeters: Double, timeConstantSeconds: Double, seed: UInt64) {
    self.sigmaMeters = sigmaMeters
    self.timeConstantSeconds = timeConstantSeconds
    self.seed = seed
  }

  /// φ, the correlation between two successive grid seconds.
  public var correlation: Double {
    guard timeConstantSeconds.isFinite, timeConstantSeconds > 0 else { return 0 }
    return faultExponential(-1 / min(timeConstantSeconds, Self.maximumTimeConstantSeconds))
  }

  /// M, the number of earlier grid seconds in each sum.
  public var memory: Int {
    let phi = correlation
    guard phi > 0 else { return 0 }
    return Int((faultLogarithm(1e-6) / faultLogarithm(phi)).rounded(.up))
  }

  /// The north and east errors at `time`, meters.
  public func offsets(at time: UTCInstant) -> (northMeters: Double, eastMeters: Double) {
    let second = UTCInstant.nanosecondsPerSecond
    let nanoseconds = time.nanoseconds
    let remainder = ((nanoseconds % second) + second) % second
    let k = (nanoseconds - remainder) / second
    let before = value(atSecond: k)
    guard remainder != 0 else { return before }
    let after = value(atSecond: k + 1)
    let fraction = Double(remainder) / Double(second)
    return (
      before.northMeters + (after.northMeters - before.northMeters) * fraction,
      before.eastMeters + (after.eastMeters - before.eastMeters) * fraction
    )
  }

  /// x_k on both axes, by Horner's rule over the M + 1 terms.
  func value(atSecond k: Int64) -> (northMeters: Double, eastMeters: Double) {
    guard sigmaMeters.isFinite, sigmaMeters != 0 else { return (0, 0) }
    let phi = correlation
    var north = 0.0
    var east = 0.0
    for j in (k - Int64(memory))...k {
      var generator = FaultRandomNumberGenerator(
        seed: seed,
        time: UTCInstant(nanosecondsSinceEpoch: j &* UTCInstant.nanosecondsPerSecond))
      north = phi * north + generator.nextStandardNormal()
      east = phi * east + generator.nextStandardNormal()
    }
    let scale = sigmaMeters.magnitude * (1 - phi * phi).squareRoot()
    return (north * scale, east * scale)
  }
}
