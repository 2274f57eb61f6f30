import NMEA
import Testing

@Suite struct SentenceTests {
  @Test func ggaFieldsFromAZedF9P() throws {
    let gga = try GGA(
      parsing: "$GNGGA,003956.00,4552.65403,S,17030.00668,E,1,12,0.64,14.2,M,1.8,M,,*56")
    #expect(gga.talker == "GN")
    #expect(gga.time?.description == "003956.00")
    let latitude = try #require(gga.latitude?.degreesValue)
    #expect(abs(latitude - -45.877567166) < 1e-8)
    #expect(gga.quality?.integerValue == 1)
    #expect(gga.satellitesUsed?.integerValue == 12)
    #expect(gga.dgpsStation == nil)
    #expect(
      gga.raw.description
        == "$GNGGA,003956.00,4552.65403,S,17030.00668,E,1,12,0.64,14.2,M,1.8,M,,*56")
  }

  @Test func gsvWithSignalIDAndWithout() throws {
    let v410 = try GSV(parsing: "$GLGSV,3,3,10,87,14,030,17,88,62,024,,1*74")
    #expect(v410.satellites.count == 2)
    #expect(v410.signalID?.integerValue == 1)
    #expect(v410.satellites[1].snr == nil)
    let v23 = try GSV(parsing: "$GPGSV,3,3,09,32,16,070,00*41")
    #expect(v23.satellites.count == 1)
    #expect(v23.signalID == nil)
  }

  @Test func aNewSentenceWritesTheStandardLayout() {
    var rmc = RMC()
    rmc.status = "V"
    rmc.mode = "N"
    #expect(rmc.raw.description == "$GPRMC,,V,,,,,,,,,,N*53")
    var zda = ZDA()
    zda.time = NMEATime("120000.00")
    #expect(zda.raw.fields.count == 6)
  }

  @Test func decodingAnotherTypeIsAnError() {
    #expect(throws: SentenceError.unexpectedType(expected: "GGA", found: "GPZDA")) {
      try GGA(parsing: "$GPZDA,1*55")
    }
  }

  @Test func invalidFieldsNameTheFieldAndTheValue() {
    #expect(
      throws: SentenceError.invalidField(
        sentence: "GPRMC", field: "date", value: "2208-1", expected: "ddmmyy")
    ) {
      try RMC(
        raw: RawSentence(
          address: "GPRMC", fields: ["", "A", "", "", "", "", "", "", "2208-1", "", ""]))
    }
    #expect(throws: SentenceError.tooFewFields(sentence: "GPGSA", expected: 17, found: 5)) {
      try GSA(raw: RawSentence(address: "GPGSA", fields: ["A", "1", "", "", ""]))
    }
  }

  @Test func unknownTypesArePassedThroughRaw() throws {
    let message = try NMEAMessage(parsing: "$PMTK001,604,3*32")
    guard case .other(let raw) = message else {
      Issue.record("expected .other")
      return
    }
    #expect(raw.description == "$PMTK001,604,3*32")
  }
}

extension SentenceBody {
  init(raw: RawSentence) throws(SentenceError) { try self.init(raw) }
}
