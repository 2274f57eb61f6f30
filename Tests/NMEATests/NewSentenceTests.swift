import NMEA
import Testing

/// GNS, GST and TXT read and write real lines from gpsd's logs unchanged.
@Suite struct NewSentenceTests {
  @Test(arguments: [
    "$GNGNS,074155.799,3114.8770,N,12135.2463,E,ANNA,05,1.3,156.9,8.3,,0000*52",
    "$GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000*63",
  ])
  func gnsRoundTrips(_ line: String) throws {
    let raw = try RawSentence(parsing: line)
    let gns = try GNS(raw)
    #expect(gns.raw.description == line)
    #expect(gns.satellitesUsed?.integerValue == Int(raw.fields[6]))
  }

  @Test func gstRoundTripsAndReadsTheDeviations() throws {
    let gst = try GST(parsing: "$GNGST,003958.00,43,,,,2.3,3.5,4.0*4A")
    #expect(gst.raw.description == "$GNGST,003958.00,43,,,,2.3,3.5,4.0*4A")
    #expect(gst.latitudeDeviation?.doubleValue == 2.3)
    #expect(gst.altitudeDeviation?.doubleValue == 4.0)
    #expect(gst.semiMajorDeviation == nil)
  }

  @Test func txtRoundTripsTheUbloxBanner() throws {
    let line = "$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E"
    let txt = try TXT(parsing: line)
    #expect(txt.text == "u-blox AG - www.u-blox.com")
    #expect(txt.textIdentifier?.integerValue == 2)
    #expect(txt.raw.description == line)
  }
}
