import Foundation
import Geodesy
import Testing

/// Azimuth, elevation and range of ECEF points from places on the ellipsoid.
@Suite struct TopocentricDirectionTests {
  static let equatorAtGreenwich = GeodeticPosition(known: 0, 0)

  @Test func pointStraightUpIsAtTheZenith() {
    let place = GeodeticPosition(known: 48.8566, 2.3522, altitudeMeters: 35)
    let above = EarthCenteredPosition(
      latitude: 48.8566, longitude: 2.3522, heightAboveEllipsoidMeters: 20_035)
    let direction = TopocentricDirection(of: above, from: place)
    #expect(abs(direction.elevationDegrees - 90) < 1e-6)
    #expect(abs(direction.rangeMeters - 20_000) < 1e-6)
  }

  @Test func cardinalDirectionsOnTheEquator() {
    let a = 6_378_137.0
    let cases: [(EarthCenteredPosition, Double)] = [
      (EarthCenteredPosition(x: a, y: 0, z: 1_000), 0),
      (EarthCenteredPosition(x: a, y: 1_000, z: 0), 90),
      (EarthCenteredPosition(x: a, y: 0, z: -1_000), 180),
      (EarthCenteredPosition(x: a, y: -1_000, z: 0), 270),
    ]
    for (target, azimuth) in cases {
      let direction = TopocentricDirection(of: target, from: Self.equatorAtGreenwich)
      #expect(abs(direction.azimuthDegrees - azimuth) < 1e-6)
      #expect(abs(direction.elevationDegrees) < 1e-6)
      #expect(abs(direction.rangeMeters - 1_000) < 1e-6)
    }
  }

  /// Directions all round the sky agree with libm's atan2 within 1e-6°.
  @Test func anglesAgreeWithLibmEverywhere() {
    for step in 0..<7200 {
      let azimuth = Double(step) * 0.05 * Double.pi / 180
      let elevation = (Double(step % 181) - 90) * Double.pi / 180
      let east = cos(elevation) * sin(azimuth)
      let north = cos(elevation) * cos(azimuth)
      let up = sin(elevation)
      let direction = LocalTangentFrame.direction(east: east, north: north, up: up)
      var expectedAzimuth = atan2(east, north) * 180 / Double.pi
      if expectedAzimuth < 0 { expectedAzimuth += 360 }
      let expectedElevation = atan2(up, hypot(east, north)) * 180 / Double.pi
      let azimuthError = abs(direction.azimuthDegrees - expectedAzimuth)
      #expect(min(azimuthError, 360 - azimuthError) < 1e-6 || abs(up) > 0.999_999)
      #expect(abs(direction.elevationDegrees - expectedElevation) < 1e-6)
    }
  }

  @Test func pointBelowTheHorizonHasNegativeElevation() {
    let direction = TopocentricDirection(
      of: EarthCenteredPosition(x: 0, y: 0, z: -6_356_752), from: Self.equatorAtGreenwich)
    #expect(direction.elevationDegrees < -44 && direction.elevationDegrees > -46)
  }

  /// A step due east from Sydney along the tangent plane is all east in the local frame, and a
  /// vector with equal east, north and horizontal-to-up parts points at 45°/45°.
  @Test func eastNorthUpRoundTrip() {
    let sydney = GeodeticPosition(known: -33.8688, 151.2093, altitudeMeters: 40)
    let frame = LocalTangentFrame(at: sydney)
    let longitude = 151.2093 * Double.pi / 180
    let east = EarthCenteredPosition(x: -sin(longitude), y: cos(longitude), z: 0)
    let step = 1_000_000.0
    let target = EarthCenteredPosition(
      x: frame.origin.x + step * east.x, y: frame.origin.y + step * east.y, z: frame.origin.z)
    let (e, n, u) = frame.eastNorthUp(of: target)
    #expect(abs(e - step) < 1e-6, "\(e)")
    #expect(abs(n) < 1e-6, "\(n)")
    #expect(abs(u) < 1e-6, "\(u)")
    let direction = LocalTangentFrame.direction(east: 1, north: 1, up: 2.squareRoot())
    #expect(abs(direction.azimuthDegrees - 45) < 1e-6)
    #expect(abs(direction.elevationDegrees - 45) < 1e-6)
    #expect(abs(direction.rangeMeters - 2) < 1e-12)
  }
}
