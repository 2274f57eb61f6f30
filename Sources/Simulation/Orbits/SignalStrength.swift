/// The carrier-to-noise density a receiver reports for a satellite: rising with elevation from
/// about 20 dB-Hz at the horizon to about 48 dB-Hz at the zenith, with seeded noise of up to
/// ±3 dB-Hz that depends only on the seed, the satellite and the whole second, so the same
/// epoch always gives the same value whatever else was asked before. A geostationary SBAS
/// satellite is `geostationaryLossDecibelHertz` weaker than a GNSS satellite at the same
/// elevation: its range is about 1.5 times a GPS satellite's (3.5 dB more path loss), which its
/// transmitter only partly makes up for.
public struct SignalStrength: Hashable, Sendable {
  /// dB-Hz at the horizon.
  public static let horizonDecibelHertz = 20.0
  /// dB-Hz at the zenith.
  public static let zenithDecibelHertz = 48.0
  /// The largest deviation the noise adds, dB-Hz.
  public static let noiseAmplitudeDecibelHertz = 3.0
  /// How much weaker an SBAS satellite is than the others at the same elevation, dB-Hz.
  public static let geostationaryLossDecibelHertz = 3.0

  /// The seed of the noise.
  public var seed: UInt64

  /// Creates the model for a seed.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// The SNR in dB-Hz of satellite `id` of `constellation` at `elevationDegrees` during the UTC
  /// second `epochSecond` (seconds since 1970).
  public func decibelHertz(
    constellation: Constellation, id: Int, elevationDegrees: Double, epochSecond: Int64
  ) -> Int {
    let satellite = UInt64(constellation.systemID << 8 | (id & 0xFF))
    var generator = FaultRandomNumberGenerator(
      seed: seed ^ FaultRandomNumberGenerator.mix(satellite &+ FaultRandomNumberGenerator.golden),
      time: UTCInstant(nanosecondsSinceEpoch: epochSecond &* UTCInstant.nanosecondsPerSecond))
    let noise = (generator.nextUnit() + generator.nextUnit() - 1) * Self.noiseAmplitudeDecibelHertz
    let elevation = min(max(elevationDegrees, 0), 90)
    let loss: Double
    switch constellation {
    case .gps, .glonass, .galileo, .beidou: loss = 0
    case .sbas: loss = Self.geostationaryLossDecibelHertz
    }
    let mean =
      Self.horizonDecibelHertz - loss
      + (Self.zenithDecibelHertz - Self.horizonDecibelHertz) * elevation / 90
    // Nearest whole dB-Hz; the value is at least 14, so adding ½ and truncating rounds it.
    return Int(mean + noise + 0.5)
  }
}
