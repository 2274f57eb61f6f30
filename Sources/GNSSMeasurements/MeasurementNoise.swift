import Simulation

/// Seeded measurement noise: white noise on code and carrier whose size follows C/N0, the same
/// for the same seed, satellite and epoch whatever was asked before.
public struct MeasurementNoise: Hashable, Sendable {
  /// The seed.
  public var seed: UInt64

  /// Creates the noise of a seed.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// The one-sigma code noise at a C/N0, meters: 0.15 m at 48 dB-Hz up to 0.6 m at 20 dB-Hz
  /// (multipath left out).
  public static func pseudorangeSigmaMeters(carrierToNoise: Int) -> Double {
    let weakness = min(1, max(0, Double(48 - carrierToNoise) / 28))
    return 0.15 + 0.45 * weakness
  }

  /// A PLL's noise bandwidth, Hz, and its predetection integration time, seconds: a GNSS
  /// receiver's usual 10 Hz and one 20 ms GPS data bit.
  static let loopBandwidthHertz = 10.0
  static let integrationSeconds = 0.02

  /// The one-sigma carrier noise at a C/N0, cycles: the PLL's thermal noise jitter,
  /// (1/2π)·√(B/(C/N0)·(1 + 1/(2T·C/N0))) (Kaplan and Hegarty, *Understanding GPS*, 2nd ed.,
  /// 5.6.1): 0.003 cycles at 45 dB-Hz, 0.009 at 35, 0.03 at 25 and 0.056 at 20.
  public static func carrierPhaseSigmaCycles(carrierToNoise: Int) -> Double {
    carrierPhaseSigmaTable.indices.contains(carrierToNoise)
      ? carrierPhaseSigmaTable[carrierToNoise]
      : pllJitterCycles(carrierToNoise: carrierToNoise)
  }

  /// `carrierPhaseSigmaCycles` of every C/N0 a receiver reports (0–99 dB-Hz), worked out once.
  static let carrierPhaseSigmaTable = (0..<100).map { pllJitterCycles(carrierToNoise: $0) }

  /// The PLL's thermal noise jitter at a C/N0, cycles (`carrierPhaseSigmaCycles`).
  static func pllJitterCycles(carrierToNoise: Int) -> Double {
    var ratio = 1.0
    for _ in 0..<max(0, carrierToNoise) { ratio *= 1.258_925_411_794_167_2 }  // 10^(dB/10)
    let jitter = loopBandwidthHertz / ratio * (1 + 1 / (2 * integrationSeconds * ratio))
    return jitter.squareRoot() / (2 * Double.pi)
  }

  /// The generator of one signal (its index among its system's) of one satellite at one epoch.
  func generator(constellation: Constellation, id: Int, signalIndex: Int, time: UTCInstant)
    -> FaultRandomNumberGenerator
  {
    let satellite = UInt64(signalIndex << 16 | constellation.systemID << 8 | (id & 0xFF))
    var mixer = FaultRandomNumberGenerator(seed: seed ^ (satellite << 40) ^ 0x5241_5758)
    return FaultRandomNumberGenerator(seed: mixer.next(), time: time)
  }

  /// The integer carrier ambiguity of one signal (its index among its system's) of a
  /// satellite, cycles: the same for the whole run, or from the time the carrier was locked
  /// again after a cut (`lockedGPSSeconds`, to the millisecond) to the next cut.
  public func ambiguityCycles(
    constellation: Constellation, id: Int, signalIndex: Int, lockedGPSSeconds: Double? = nil
  ) -> Double {
    let satellite = UInt64(signalIndex << 16 | constellation.systemID << 8 | (id & 0xFF))
    // A carrier locked again after a cut has a new ambiguity; the first lock keeps the seed's.
    var lock: UInt64 = 0
    if let locked = lockedGPSSeconds, locked.isFinite, abs(locked) < 1e15 {
      lock = UInt64(bitPattern: Int64((locked * 1000).rounded())) &* 0x9E37_79B9_7F4A_7C15
    }
    var mixer = FaultRandomNumberGenerator(seed: seed ^ (satellite << 24) ^ 0x414D_4249 ^ lock)
    return Double(Int64(mixer.next() % 2_000_000)) - 1_000_000
  }
}
