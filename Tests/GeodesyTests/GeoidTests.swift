import Geodesy
import Testing

/// EGM96 on its 10° grid: known values, continuity across the date line and at the poles.
@Suite struct GeoidTests {
  let geoid = EGM96Geoid()

  /// EGM96 heights of the 15′ grid (`egm96_15.gtx`, rounded), within what a 10° grid can hold
  /// there: the Gulf of Guinea is smooth, the Indian Ocean low and New Guinea's high are steep.
  @Test(arguments: [
    (0.0, 0.0, 17.2, 0.5), (5.0, 78.0, -104.7, 8.0), (-4.0, 140.0, 77.3, 7.0),
    (90.0, 0.0, 13.6, 0.1), (-90.0, 0.0, -29.5, 0.1),
  ])
  func knownHeights(latitude: Double, longitude: Double, meters: Double, tolerance: Double) {
    let found = geoid.separationMeters(latitude: latitude, longitude: longitude)
    #expect(abs(found - meters) <= tolerance, "\(latitude), \(longitude): \(found) m")
  }

  @Test func theIndianOceanLowIsTheDeepestPoint() {
    var lowest = (height: Double.infinity, latitude: 0.0, longitude: 0.0)
    for latitude in stride(from: -90.0, through: 90, by: 1) {
      for longitude in stride(from: -180.0, to: 180, by: 1) {
        let height = geoid.separationMeters(latitude: latitude, longitude: longitude)
        if height < lowest.height { lowest = (height, latitude, longitude) }
      }
    }
    #expect(lowest.height < -95 && lowest.height > -107, "\(lowest)")
    #expect((0...10).contains(lowest.latitude) && (70...90).contains(lowest.longitude))
  }

  @Test(arguments: [-180.0, 0.0, 180.0, 540.0, -540.0])
  func longitudeWrapsAround(longitude: Double) {
    for latitude in [-62.5, 0.0, 33.3] {
      let wrapped = longitude.remainder(dividingBy: 360)
      #expect(
        abs(
          geoid.separationMeters(latitude: latitude, longitude: longitude)
            - geoid.separationMeters(latitude: latitude, longitude: wrapped)) < 1e-9)
    }
  }

  @Test func isContinuousAcrossTheDateLineAndNodes() {
    for latitude in stride(from: -89.5, through: 89.5, by: 7.3) {
      let east = geoid.separationMeters(latitude: latitude, longitude: 179.999_999)
      let west = geoid.separationMeters(latitude: latitude, longitude: -180)
      #expect(abs(east - west) < 1e-3, "latitude \(latitude)")
      let below = geoid.separationMeters(latitude: latitude, longitude: 9.999_999)
      let above = geoid.separationMeters(latitude: latitude, longitude: 10)
      #expect(abs(below - above) < 1e-3, "latitude \(latitude)")
    }
  }

  @Test func polesAreOneValueWhateverTheLongitudeAndBeyondIsClamped() {
    for pole in [-90.0, 90.0] {
      let values = stride(from: -180.0, to: 180, by: 13).map {
        geoid.separationMeters(latitude: pole, longitude: $0)
      }
      let spread = (values.max() ?? 0) - (values.min() ?? 0)
      #expect(spread < 1e-9, "\(pole): \(values)")
      #expect(abs(geoid.separationMeters(latitude: pole * 1.5, longitude: 3) - values[0]) < 1e-9)
    }
  }

  @Test func nonFiniteInputGivesZeroInsteadOfTrapping() {
    #expect(geoid.separationMeters(latitude: .nan, longitude: 0) == 0)
    #expect(geoid.separationMeters(latitude: 0, longitude: .infinity) == 0)
  }
}
