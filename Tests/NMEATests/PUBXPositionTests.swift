import NMEA
import Testing

/// PUBX,00 reads and writes the example of the u-blox 8 / M8 receiver description unchanged; a
/// standard sentence type does not take a proprietary line, nor PUBX a standard one.
@Suite struct PUBXPositionTests {
  static let example =
    "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,"
    + "0.92,1.19,0.77,9,0,0*5F"

  @Test func theExampleRoundTripsAndReadsItsFields() throws {
    let pubx = try PUBXPosition(parsing: Self.example)
    #expect(pubx.raw.description == Self.example)
    #expect(pubx.messageID == "00")
    #expect(pubx.time?.description == "081350.00")
    #expect(pubx.ellipsoidalAltitude?.doubleValue == 546.589)
    #expect(pubx.navigationStatus == "G3")
    #expect(pubx.horizontalAccuracy?.doubleValue == 2.1)
    #expect(pubx.differentialAge == nil)
    #expect(pubx.tdop?.doubleValue == 0.77)
    #expect(pubx.satellitesUsed?.integerValue == 9)
    #expect(PUBXPosition.spec.timeFieldNumber == 2)
  }

  @Test func proprietaryAndStandardTypesKeepApart() throws {
    #expect(throws: SentenceError.self) { try GGA(parsing: Self.example) }
    #expect(throws: SentenceError.self) {
      try PUBXPosition(parsing: "$GNGBS,003956.00,2.3,3.5,4.0,,,,,,*55")
    }
  }
}
