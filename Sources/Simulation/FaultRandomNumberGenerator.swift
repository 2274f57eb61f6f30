/// A small seeded generator for faults: SplitMix64 (Steele, Lea and Flood 2014, as in Java's
/// `SplittableRandom` and Vigna's reference C code).
///
/// Faults never use the system's randomness: a seed and an epoch time always give the same
/// numbers, so a scenario replays identically and tests can check exact output.
public struct FaultRandomNumberGenerator: RandomNumberGenerator, Hashable, Sendable {
  static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// The generator's state; each call to `next()` advances it by a constant.
  public private(set) var state: UInt64

  /// Creates a generator whose first output is SplitMix64's first output for `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// Creates the generator of one epoch: the same seed and time always give the same stream,
  /// and neighbouring times give unrelated ones.
  public init(seed: UInt64, time: UTCInstant) {
    state = Self.mix(seed ^ Self.mix(UInt64(bitPattern: time.nanoseconds) &+ Self.golden))
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= Self.golden
    return Self.mix(state)
  }

  /// A number from 0 up to but excluding 1, from the top 53 bits of `next()`.
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// An approximately normal number with mean 0 and standard deviation 1: the sum of twelve
  /// uniform numbers minus 6 (Irwin–Hall), which needs no libm and never exceeds ±6.
  public mutating func nextStandardNormal() -> Double {
    var sum = 0.0
    for _ in 0..<12 { sum += nextUnit() }
    return sum - 6
  }

  /// SplitMix64's output function (a variant of MurmurHash3's finalizer).
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
