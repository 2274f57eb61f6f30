import Geodesy
import Testing

/// Published values, no oracle needed: rows of GeographicLib's test set (`testcases` in its
/// `test_geodesic.py`, from GeodTest.dat, exact to about 10⁻⁹ m) and its GeodSolve regression
/// cases.
@Suite struct GeodesicKnownValuesTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var lat1, lon1, azi1, lat2, lon2, azi2, s12: Double
    var testDescription: String { "\(lat1),\(lon1) → \(lat2),\(lon2)" }
  }

  static let testSet: [Case] = [
    Case(
      lat1: 35.60777, lon1: -139.44815, azi1: 111.098748429560326, lat2: -11.17491,
      lon2: -69.95921, azi2: 129.289270889708762, s12: 8_935_244.5604818305),
    Case(
      lat1: 55.52454, lon1: 106.05087, azi1: 22.020059880982801, lat2: 77.03196,
      lon2: 197.18234, azi2: 109.112041110671519, s12: 4_105_086.1713924406),
    Case(
      lat1: -21.97856, lon1: 142.59065, azi1: -32.44456876433189, lat2: 41.84138,
      lon2: 98.56635, azi2: -41.84359951440466, s12: 8_394_328.894657671),
    Case(
      lat1: -66.99028, lon1: 112.2363, azi1: 173.73491240878403, lat2: -12.70631,
      lon2: 285.90344, azi2: 2.512956620913668, s12: 11_150_344.2312080241),
    Case(
      lat1: -17.42761, lon1: 173.34268, azi1: -159.033557661192928, lat2: -15.84784,
      lon2: 5.93557, azi2: -20.787484651536988, s12: 16_076_603.1631180673),
    Case(
      lat1: 6.96833, lon1: 52.74123, azi1: 92.581585386317712, lat2: -7.39675,
      lon2: 206.17291, azi2: 90.721692165923907, s12: 17_102_477.2496958388),
    Case(
      lat1: -87.85331, lon1: 85.66836, azi1: -65.120313040242748, lat2: 66.48646,
      lon2: 16.09921, azi2: -4.888658719272296, s12: 17_286_615.3147144645),
    // GeodSolve76: Wellington to Salamanca, a classic failure of Vincenty's method.
    Case(
      lat1: -(41 + 19 / 60.0), lon1: 174 + 49 / 60.0, azi1: 160.39137649664,
      lat2: 40 + 58 / 60.0, lon2: -(5 + 30 / 60.0), azi2: 19.50042925176, s12: 19_960_543.857179),
    // GeodSolve78: where the NGS calculator fails to converge.
    Case(
      lat1: 27.2, lon1: 0, azi1: 45.82468716758, lat2: -27.1, lon2: 179.5,
      azi2: 134.22776532670, s12: 19_974_354.765767),
  ]

  private func position(_ latitude: Double, _ longitude: Double) -> GeodeticPosition {
    GeodeticPosition(known: latitude, longitude.remainder(dividingBy: 360))
  }

  @Test(arguments: testSet)
  func inverseMatchesThePublishedValues(_ row: Case) {
    let result = Geodesic.wgs84.inverse(
      from: position(row.lat1, row.lon1), to: position(row.lat2, row.lon2))
    #expect(abs(result.distanceMeters - row.s12) < 1e-6)
    #expect(angleBetween(result.initialAzimuthDegrees, row.azi1) < 1e-9)
    #expect(angleBetween(result.finalAzimuthDegrees, row.azi2) < 1e-9)
  }

  @Test(arguments: testSet)
  func directMatchesThePublishedValues(_ row: Case) {
    let result = Geodesic.wgs84.direct(
      from: position(row.lat1, row.lon1), azimuthDegrees: row.azi1, distanceMeters: row.s12)
    #expect(abs(result.position.latitude - row.lat2) < 1e-9)
    #expect(angleBetween(result.position.longitude, row.lon2) < 1e-9)
    #expect(angleBetween(result.finalAzimuthDegrees, row.azi2) < 1e-9)
  }

  /// GeodSolve6, 9, 10 and 11: nearly antipodal points where Newton's method needs the astroid
  /// start, distances published to 0.5 mm.
  @Test(arguments: [
    (88.202499451857, -88.202499451857, 179.981022032992859592, 20_003_898.214),
    (89.262080389218, -89.262080389218, 179.992207982775375662, 20_003_925.854),
    (56.320923501171, -56.320923501171, 179.664747671772880215, 19_993_558.287),
    (52.784459512564, -52.784459512563990912, 179.634407464943777557, 19_991_596.095),
    (48.522876735459, -48.52287673545898293, 179.599720456223079643, 19_989_144.774),
  ])
  func nearlyAntipodalDistances(lat1: Double, lat2: Double, lon2: Double, s12: Double) {
    let result = Geodesic.wgs84.inverse(from: position(lat1, 0), to: position(lat2, lon2))
    #expect(abs(result.distanceMeters - s12) < 0.5e-3)
  }

  /// GeodSolve33: along the equator while the equator is shortest, off it once it is not.
  @Test func equatorialLinesLeaveTheEquatorNearTheAntipode() {
    let origin = position(0, 0)
    let along = Geodesic.wgs84.inverse(from: origin, to: position(0, 179))
    #expect(abs(along.distanceMeters - 19_926_189) < 0.5)
    #expect(abs(along.initialAzimuthDegrees - 90) < 0.5e-5)
    let over = Geodesic.wgs84.inverse(from: origin, to: position(0, 179.5))
    #expect(abs(over.initialAzimuthDegrees - 55.96650) < 0.5e-5)
  }

  /// GeodSolve4: a 7 cm line between points 10⁻¹⁴° apart in latitude.
  @Test func shortLineBetweenNearlyEqualLatitudes() {
    let result = Geodesic.wgs84.inverse(
      from: position(36.493349428792, 0), to: position(36.49334942879201, 0.0000008))
    #expect(abs(result.distanceMeters - 0.072) < 0.5e-3)
  }

  /// GeodSolve5: a direct line that ends on the north pole.
  @Test func directLineToThePole() {
    let result = Geodesic.wgs84.direct(
      from: position(0.01777745589997, 30), azimuthDegrees: 0, distanceMeters: 10e6)
    #expect(abs(result.position.latitude - 90) < 0.5e-5)
    let keptMeridian = abs(result.position.longitude - 30) < 0.5e-5
    let crossedPole = abs(result.position.longitude + 150) < 0.5e-5
    #expect(keptMeridian || crossedPole)
  }
}
