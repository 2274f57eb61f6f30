import NMEA
import Testing

/// GBS, GRS, DTM and VLW read and write their lines unchanged: the GBS of gpsd's
/// `ublox-zed-f9p-nmea.log`, and the examples of the u-blox 8 / M8 receiver description (NMEA
/// protocol, standard messages) with their checksums as pynmeagps computes them.
@Suite struct IntegrityAndDatumSentenceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let line: String
    /// The field count the sentence is read with.
    let fieldCount: Int
    var testDescription: String { line }
  }

  static let cases: [Case] = [
    Case(line: "$GNGBS,003956.00,2.3,3.5,4.0,,,,,,*55", fieldCount: 10),
    Case(line: "$GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0*5A", fieldCount: 10),
    Case(line: "$GNGRS,104148.00,1,2.6,2.2,-1.6,-1.1,-1.7,-1.5,5.8,1.7,,,,,1,1*52", fieldCount: 16),
    Case(line: "$GPGRS,104148.00,1,2.6,2.2,-1.6,-1.1,-1.7,-1.5,5.8,1.7,,,,*4C", fieldCount: 14),
    Case(line: "$GPDTM,999,,0.08,N,0.07,E,-47.7,W84*1B", fieldCount: 8),
    Case(line: "$GPVLW,,N,,N,15.8,N,1.2,N*65", fieldCount: 8),
  ]

  @Test(arguments: cases)
  func roundTrips(_ row: Case) throws {
    let raw = try RawSentence(parsing: row.line)
    let text: String
    switch raw.type {
    case "GBS": text = try GBS(raw).raw.description
    case "GRS": text = try GRS(raw).raw.description
    case "DTM": text = try DTM(raw).raw.description
    default: text = try VLW(raw).raw.description
    }
    #expect(text == row.line)
    #expect(raw.fields.count == row.fieldCount)
  }

  @Test func gbsReadsTheExpectedErrorsAndTheFailedSatellite() throws {
    let gbs = try GBS(parsing: "$GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0*5A")
    #expect(gbs.latitudeError?.doubleValue == 1.4)
    #expect(gbs.altitudeError?.doubleValue == 3.1)
    #expect(gbs.failedSatelliteID?.integerValue == 3)
    #expect(gbs.missedDetectionProbability == nil)
    #expect(gbs.bias?.doubleValue == -21.4)
    #expect(gbs.systemID?.integerValue == 1)
    #expect(gbs.signalID?.integerValue == 0)
  }

  @Test func grsReadsTwelveResidualSlots() throws {
    let grs = try GRS(
      parsing: "$GNGRS,104148.00,1,2.6,2.2,-1.6,-1.1,-1.7,-1.5,5.8,1.7,,,,,1,1*52")
    #expect(grs.mode?.integerValue == 1)
    #expect(grs.residuals.count == 12)
    #expect(grs.residuals[2]?.doubleValue == -1.6)
    #expect(grs.residuals[8] == nil)
    #expect(grs.systemID?.integerValue == 1)
  }

  @Test func dtmAndVLWReadTheirOffsetsAndDistances() throws {
    let dtm = try DTM(parsing: "$GPDTM,999,,0.08,N,0.07,E,-47.7,W84*1B")
    #expect(dtm.datum == "999")
    #expect(dtm.subdivision == nil)
    #expect(dtm.altitudeOffset?.doubleValue == -47.7)
    #expect(dtm.referenceDatum == "W84")
    let vlw = try VLW(parsing: "$GPVLW,,N,,N,15.8,N,1.2,N*65")
    #expect(vlw.totalWaterDistance == nil)
    #expect(vlw.totalGroundDistance?.doubleValue == 15.8)
    #expect(vlw.groundDistanceUnit == "N")
  }

  @Test func newSentencesWriteTheirStandardLayout() {
    #expect(GBS().raw.fields.count == 8)
    #expect(GRS().raw.fields.count == 14)
    #expect(DTM().raw.fields.count == 8)
    #expect(VLW().raw.fields.count == 4)
  }
}
