import Geodesy
import Testing

@Suite struct GeodesicEdgeCaseTests {
  let geodesic = Geodesic.wgs84

  @Test(arguments: [(0.0, 0.0), (51.5, -0.12), (-90, 0), (90, 45), (0, 180), (-33.9, -180)])
  func samePointIsZeroDistanceAway(latitude: Double, longitude: Double) {
    let point = GeodeticPosition(known: latitude, longitude, altitudeMeters: 12)
    let result = geodesic.inverse(from: point, to: point)
    #expect(result.distanceMeters == 0)
    #expect((0..<360).contains(result.initialAzimuthDegrees))
    let halfway = geodesic.interpolate(from: point, to: point, fraction: 0.5)
    #expect(halfway.position == point)
  }

  @Test func poleToPoleIsHalfTheMeridian() {
    let south = GeodeticPosition(known: -90, 0)
    let north = GeodeticPosition(known: 90, 0)
    let result = geodesic.inverse(from: south, to: north)
    // The WGS-84 quarter meridian is 10,001,965.7293 m (GeographicLib).
    #expect(abs(result.distanceMeters - 2 * 10_001_965.7293) < 1e-3)
    #expect(result.initialAzimuthDegrees == 0)
    #expect(result.finalAzimuthDegrees == 0)
  }

  @Test func crossingTheAntimeridianTakesTheShortWay() {
    let west = GeodeticPosition(known: 0, 179.5)
    let east = GeodeticPosition(known: 0, -179.5)
    let result = geodesic.inverse(from: west, to: east)
    // One degree of the equator: a · π/180.
    #expect(abs(result.distanceMeters - 6_378_137 * Double.pi / 180) < 1e-6)
    #expect(abs(result.initialAzimuthDegrees - 90) < 1e-12)
    let middle = geodesic.interpolate(from: west, to: east, fraction: 0.5)
    #expect(abs(abs(middle.position.longitude) - 180) < 1e-9)
    let beyond = geodesic.direct(from: west, azimuthDegrees: 90, distanceMeters: 111_319.49)
    #expect(abs(beyond.position.longitude + 179.5) < 1e-6)
  }

  @Test func directOverThePoleComesDownTheOtherSide() {
    let start = GeodeticPosition(known: 89, 10)
    let result = geodesic.direct(from: start, azimuthDegrees: 0, distanceMeters: 2 * 111_700)
    #expect(abs(result.position.longitude - -170) < 1e-9)
    #expect(result.position.latitude < 89.1 && result.position.latitude > 88.9)
    #expect(abs(result.finalAzimuthDegrees - 180) < 1e-9)
  }

  @Test func interpolationEndsAtBothPointsAndInterpolatesAltitude() {
    let a = GeodeticPosition(known: 52.52, 13.405, altitudeMeters: 34)
    let b = GeodeticPosition(known: 48.1372, 11.5756, altitudeMeters: 519)
    let start = geodesic.interpolate(from: a, to: b, fraction: 0)
    let end = geodesic.interpolate(from: a, to: b, fraction: 1)
    #expect(geodesic.inverse(from: start.position, to: a).distanceMeters < 1e-9)
    #expect(geodesic.inverse(from: end.position, to: b).distanceMeters < 1e-6)
    #expect(
      abs(end.finalAzimuthDegrees - geodesic.inverse(from: a, to: b).finalAzimuthDegrees) < 1e-9)
    let quarter = geodesic.interpolate(from: a, to: b, fraction: 0.25)
    #expect(abs(quarter.position.altitudeMeters - (34 + 485 * 0.25)) < 1e-9)
    let total = geodesic.inverse(from: a, to: b).distanceMeters
    let first = geodesic.inverse(from: a, to: quarter.position).distanceMeters
    #expect(abs(first - total / 4) < 1e-6)
  }

  @Test func lineMatchesDirectAndInterpolate() {
    let a = GeodeticPosition(known: -33.8688, 151.2093, altitudeMeters: 5)
    let b = GeodeticPosition(known: 37.7749, -122.4194, altitudeMeters: 50)
    let line = geodesic.line(from: a, to: b)
    #expect(abs(line.lengthMeters - geodesic.inverse(from: a, to: b).distanceMeters) == 0)
    for step in 0...10 {
      let fraction = Double(step) / 10
      let viaLine = line.position(atFraction: fraction)
      let viaDirect = geodesic.direct(
        from: a, azimuthDegrees: line.azimuthDegrees, distanceMeters: line.lengthMeters * fraction)
      #expect(
        geodesic.inverse(from: viaLine.position, to: viaDirect.position).distanceMeters < 1e-6)
      #expect(viaLine == geodesic.interpolate(from: a, to: b, fraction: fraction))
    }
  }

  /// Every kind of awkward input, thousands of them: nothing comes out NaN or out of range.
  @Test func resultsAreFiniteAndInRangeForAllValidInputs() {
    for sample in GeodesicSample.generate(count: 4000, seed: 7) {
      let inverse = geodesic.inverse(from: sample.a, to: sample.b)
      #expect(inverse.distanceMeters.isFinite && inverse.distanceMeters >= 0, "\(sample)")
      #expect(inverse.distanceMeters <= 20_003_931.5, "\(sample)")
      #expect((0..<360).contains(inverse.initialAzimuthDegrees), "\(sample)")
      #expect((0..<360).contains(inverse.finalAzimuthDegrees), "\(sample)")
      let direct = geodesic.direct(
        from: sample.a, azimuthDegrees: sample.azimuthDegrees,
        distanceMeters: sample.distanceMeters)
      #expect((0..<360).contains(direct.finalAzimuthDegrees), "\(sample)")
      #expect(direct.position.latitude.isFinite && direct.position.longitude.isFinite)
    }
  }

  /// The corners of the coordinate ranges, every pair of them both ways, and azimuths outside
  /// 0..<360: finite, in range, and the same geodesic for an azimuth and that azimuth ± 360°.
  @Test func cornersOfTheCoordinateRangesGiveFiniteResults() {
    let corners = [
      (90.0, 180.0), (90, -180), (-90, 0), (0, 180), (0, -180), (0, 0), (-0.0, -0.0), (45, 180),
    ].map { GeodeticPosition(known: $0.0, $0.1) }
    for a in corners {
      for b in corners {
        let inverse = geodesic.inverse(from: a, to: b)
        #expect(inverse.distanceMeters.isFinite && inverse.distanceMeters >= 0, "\(a) → \(b)")
        #expect((0..<360).contains(inverse.initialAzimuthDegrees), "\(a) → \(b)")
        #expect((0..<360).contains(inverse.finalAzimuthDegrees), "\(a) → \(b)")
      }
      for azimuth in [-360.0, -0.0, 90, 450, 1e6] {
        let turned = geodesic.direct(from: a, azimuthDegrees: azimuth, distanceMeters: 1e6)
        let plain = geodesic.direct(
          from: a, azimuthDegrees: azimuth.truncatingRemainder(dividingBy: 360),
          distanceMeters: 1e6)
        #expect(geodesic.inverse(from: turned.position, to: plain.position).distanceMeters < 1e-6)
        #expect((0..<360).contains(turned.finalAzimuthDegrees))
      }
    }
  }
}
