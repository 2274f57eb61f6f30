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
    site(latitude: latitude, heightMeters: heightMeters).delayMeters(
      elevationDegrees: elevationDegrees)
  }

  /// The model at one place: what does not depend on the satellite, worked out once.
  func site(latitude: Double, heightMeters: Double) -> Site {
    guard heightMeters < 10_000, heightMeters > -100 else {
      return Site(hydrostaticMeters: 0, wetMeters: 0)
    }
    let height = max(0, heightMeters)
    let pressure = 1013.25 * MeasurementMath.power(1 - 2.2557e-5 * height, 5.2568)
    let temperature = 15 - 6.5e-3 * height + 273.16
    let vapourPressure =
      6.108 * relativeHumidity
      * MeasurementMath.exponential((17.15 * temperature - 4684) / (temperature - 38.45))
    return Site(
      hydrostaticMeters: 0.0022768 * pressure
        / (1 - 0.00266 * MeasurementMath.cosine(2 * latitude * .pi / 180)
          - 0.00028 * height / 1000),
      wetMeters: 0.002277 * (1255 / temperature + 0.05) * vapourPressure)
  }

  /// The zenith delays at one place, meters; outside 0–10 km both are 0.
  struct Site {
    var hydrostaticMeters: Double
    var wetMeters: Double

    /// The delay towards a satellite at `elevationDegrees`: each zenith delay over the sine of
    /// the elevation (the zenith angle's cosine); none below the horizon.
    func delayMeters(elevationDegrees: Double) -> Double {
      guard elevationDegrees > 0 else { return 0 }
      let zenithCosine = MeasurementMath.sine(elevationDegrees * .pi / 180)
      return hydrostaticMeters / zenithCosine + wetMeters / zenithCosine
    }
  }
}
