import Foundation
import Testing

@testable import Geodesy

/// An antenna's offset on a vehicle: along the course, to its right and up, at several
/// latitudes (the poles too) and headings, measured back in ECEF; offsets past ±100 m refused.
@Suite struct AntennaOffsetTests {
  @Test(arguments: [0.0, 47.5, -33.9, 71.2, 89.999_999_9, 90, -90], [0.0, 90, 137.5, 271])
  func theAntennaIsWhereTheOffsetSays(latitude: Double, course: Double) throws {
    let offset = try #require(AntennaOffset(forwardMeters: 1.5, rightMeters: -0.4, upMeters: 0.2))
    let vehicle = GeodeticPosition(known: latitude, 179.9999, altitudeMeters: 120)
    let antenna = offset.antenna(at: vehicle, courseDegrees: course)
    let vector = LocalTangentFrame(at: vehicle).eastNorthUp(of: EarthCenteredPosition(antenna))
    // Forward along the course, right along the course turned 90° clockwise: each a unit
    // vector of its own heading, east sin and north cos.
    let (forward, right) = (course * .pi / 180, (course + 90) * .pi / 180)
    let east = 1.5 * sin(forward) + -0.4 * sin(right)
    let north = 1.5 * cos(forward) + -0.4 * cos(right)
    #expect(abs(vector.east - east) < 1e-6, "east \(vector.east) for \(east)")
    #expect(abs(vector.north - north) < 1e-6, "north \(vector.north) for \(north)")
    #expect(abs(vector.up - 0.2) < 1e-6)
    #expect(antenna.longitude <= 180 && antenna.longitude >= -180)
  }

  @Test func offsetsPastTheLimitAreRefused() {
    #expect(AntennaOffset(forwardMeters: 100.5, rightMeters: 0) == nil)
    #expect(AntennaOffset(forwardMeters: 0, rightMeters: .nan) == nil)
    #expect(AntennaOffset(forwardMeters: 0, rightMeters: 0, upMeters: -101) == nil)
    #expect(AntennaOffset(forwardMeters: -100, rightMeters: 100, upMeters: 100) != nil)
  }
}
