/// The GPS single-frequency ionospheric model (IS-GPS-200, 20.3.3.5.2.5) with the eight
/// coefficients subframe 4 page 18 broadcasts, already rounded to what that page carries.
public struct KlobucharModel: Hashable, Sendable {
  /// α₀…α₃: the amplitude's polynomial, seconds per semicircle to the n.
  public var alpha: [Double]
  /// β₀…β₃: the period's polynomial, seconds per semicircle to the n.
  public var beta: [Double]

  /// The scale factors of α₀…α₃ and β₀…β₃ (Table 20-X).
  static let alphaUnits = [0x1p-30, 0x1p-27, 0x1p-24, 0x1p-24]
  static let betaUnits = [0x1p11, 0x1p14, 0x1p16, 0x1p16]

  /// A model from coefficients, each rounded to its broadcast scale.
  public init(alpha: [Double], beta: [Double]) {
    self.alpha = zip(alpha, Self.alphaUnits).map { ($0 / $1).rounded() * $1 }
    self.beta = zip(beta, Self.betaUnits).map { ($0 / $1).rounded() * $1 }
  }

  /// Coefficients of a moderately active ionosphere, as GPS broadcast them on a spring day
  /// (about 5 m of vertical delay at 14:00 local time near the equator).
  public static let typical = KlobucharModel(
    alpha: [1.1176e-8, 7.4506e-9, -5.9605e-8, -5.9605e-8],
    beta: [9.0112e4, 4.9152e4, -1.3107e5, -3.2768e5])

  /// The integers subframe 4 page 18 carries for α₀…α₃ then β₀…β₃ (8 bits each, signed).
  var broadcastIntegers: [Int64] {
    zip(alpha, Self.alphaUnits).map { Int64(($0 / $1).rounded()) }
      + zip(beta, Self.betaUnits).map { Int64(($0 / $1).rounded()) }
  }

  /// The L1 delay in meters seen from `latitude`/`longitude` (degrees) towards a satellite at
  /// `azimuth`/`elevation` (degrees) at `gpsSecondsOfWeek`.
  public func delayMeters(
    latitude: Double, longitude: Double, azimuthDegrees: Double, elevationDegrees: Double,
    gpsSecondsOfWeek: Double
  ) -> Double {
    let elevation = elevationDegrees / 180
    let azimuth = azimuthDegrees * .pi / 180
    let earthAngle = 0.0137 / (elevation + 0.11) - 0.022
    let pierceLatitude = min(
      0.416, max(-0.416, latitude / 180 + earthAngle * MeasurementMath.cosine(azimuth)))
    let pierceLongitude =
      longitude / 180 + earthAngle * MeasurementMath.sine(azimuth)
      / MeasurementMath.cosine(pierceLatitude * .pi)
    let geomagneticLatitude =
      pierceLatitude + 0.064 * MeasurementMath.cosine((pierceLongitude - 1.617) * .pi)
    var localTime = 4.32e4 * pierceLongitude + gpsSecondsOfWeek
    localTime -= (localTime / 86_400).rounded(.down) * 86_400
    let obliquity = 1 + 16 * (0.53 - elevation) * (0.53 - elevation) * (0.53 - elevation)
    let amplitude = max(0, Self.polynomial(alpha, geomagneticLatitude))
    let period = max(72_000, Self.polynomial(beta, geomagneticLatitude))
    let phase = 2 * .pi * (localTime - 50_400) / period
    var delay = 5e-9
    if abs(phase) < 1.57 {
      delay += amplitude * (1 - phase * phase / 2 + phase * phase * phase * phase / 24)
    }
    return obliquity * delay * GPSSignal.speedOfLight
  }

  static func polynomial(_ coefficients: [Double], _ x: Double) -> Double {
    coefficients.reversed().reduce(0) { $0 * x + $1 }
  }
}
