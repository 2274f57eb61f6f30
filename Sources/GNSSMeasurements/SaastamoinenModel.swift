/// The tropospheric delay of Saastamoinen's model (Saastamoinen 1972, with the zenith angle's
/// secant as its mapping) over a standard atmosphere: pressure and temperature from the height
/// above the ellipsoid (ISO 2533 lapse rate), water vapour from a relative humidity.
public struct SaastamoinenModel: Hashable, Sendable {
  /// Relative humidity, 0…1.
  public var relativeHumidity: Double

  /// A model for a relative humidity (0.7 by default, as RTKLIB assumes).
  public init(relativeHumidity: Double = 0.7) {
    self.relativeHumidity = relativeHumidity
  }

  /// The delay in meters towards a satellite at `elevationDegrees` from `latitude` (degrees)
  /// at `heightMeters` above the ellipsoid; none below the horizon or outside 0–10 km (heights
  /// below sea level count as 0).
  public func delayMeters(latitude: Double, heightMeters: Double, elevationDegrees: Double)
    -> Double
  {
    guard elevationDegrees > 0, heightMeters < 10_000, heightMeters > -100 else { return 0 }
    let height = max(0, heightMeters)
    let pressure = 1013.25 * MeasurementMath.power(1 - 2.2557e-5 * height, 5.2568)
    let temperature = 15 - 6.5e-3 * height + 273.16
    let vapourPressure =
      6.108 * relativeHumidity
      * MeasurementMath.exponential((17.15 * temperature - 4684) / (temperature - 38.45))
    let zenithCosine = MeasurementMath.sine(elevationDegrees * .pi / 180)
    let hydrostatic =
      0.0022768 * pressure
      / (1 - 0.00266 * MeasurementMath.cosine(2 * latitude * .pi / 180) - 0.00028 * height / 1000)
      / zenithCosine
    let wet = 0.002277 * (1255 / temperature + 0.05) * vapourPressure / zenithCosine
    return hydrostatic + wet
  }
}
