import NMEA
import Testing

/// PUBX,03 reads and writes the example of the u-blox 8 / M8 receiver description unchanged,
/// its repeated blocks as satellites.
@Suite struct PUBXSatelliteStatusTests {
  static let example =
    "$PUBX,03,11,23,-,,,45,010,29,-,,,46,013,07,-,,,42,015,08,U,067,31,42,025,10,U,195,33,46,"
    + "026,18,U,326,08,39,026,17,-,,,32,015,26,U,306,66,48,025,27,U,073,10,36,026,28,U,089,61,"
    + "46,024,15,-,,,39,014*0D"

  @Test func theExampleRoundTripsAndReadsItsSatellites() throws {
    let pubx = try PUBXSatelliteStatus(parsing: Self.example)
    #expect(pubx.raw.description == Self.example)
    #expect(pubx.count?.integerValue == 11)
    let satellites = try #require(pubx.satellites)
    #expect(satellites.count == 11)
    #expect(
      satellites[3]
        == PUBXSatelliteStatus.Satellite(
          number: 8, status: "U", azimuth: 67, elevation: 31, carrierToNoise: 42, lockSeconds: 25))
    #expect(satellites[0].azimuth == nil && satellites[0].elevation == nil)
    // Written back from the satellites, the same line.
    var written = PUBXSatelliteStatus()
    written.satellites = satellites
    #expect(written.raw.description == Self.example)
    #expect(throws: SentenceError.self) { try PUBXSatelliteStatus(parsing: PUBXTimeTests.capture) }
  }
}
