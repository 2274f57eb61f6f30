import Receiver
import Testing

@Suite struct MTKCommandHandlerTests {
  static let mtk = ReceiverProfile(
    name: "test-mtk", summary: "MediaTek for tests", commandSet: .mtk,
    defaultConstellations: [.gps],
    channelLimit: 22, defaultBaud: 9600,
    defaultOutput: OutputSelection(nmeaEveryEpoch: ["GGA", "GSA", "GSV", "RMC", "VTG"]))

  static func replies(_ lines: [String]) -> [ReceiverEffect] {
    var handler = MTKCommandHandler(profile: mtk)
    return lines.flatMap { handler.handle(.nmea($0)) }
  }

  static func reply(_ text: String) -> ReceiverEffect { .reply(Array((text + "\r\n").utf8)) }

  @Test func parsesCommandsAndChecksTheirChecksum() throws {
    #expect(
      try PMTKCommand(parsing: "$PMTK220,200*2C") == PMTKCommand(number: 220, fields: ["200"]))
    #expect(try PMTKCommand(parsing: "$PMTK605*31") == PMTKCommand(number: 605))
    #expect(throws: PMTKCommand.ParseError.self) { try PMTKCommand(parsing: "$PMTK220,200*2D") }
    #expect(throws: PMTKCommand.ParseError.self) { try PMTKCommand(parsing: "$PMTK220,200") }
    #expect(throws: PMTKCommand.ParseError.notPMTK(address: "GPGGA")) {
      try PMTKCommand(parsing: "$GPGGA,1*4B")
    }
    #expect(throws: PMTKCommand.ParseError.notPMTK(address: "PMTK22")) {
      try PMTKCommand(parsing: "$PMTK22*02")
    }
    #expect(PMTKCommand(number: 1, fields: ["220", "3"]).text == "$PMTK001,220,3*30")
  }

  @Test func gpsdsProbeIsAnsweredWithTheFirmwareRelease() {
    #expect(
      Self.replies(["$PMTK605*31"]) == [Self.reply("$PMTK705,AXN_1.30,0145,Fastrax IT500,*67")])
  }

  @Test func fixIntervalSetsTheRateAndIsAcknowledged() throws {
    #expect(
      Self.replies(["$PMTK220,200*2C"]) == [
        Self.reply("$PMTK001,220,3*30"), .setRate(try CadencePlan(rateHz: 5)),
      ])
    let tooFast = PMTKCommand(number: 220, fields: ["20"]).text
    #expect(Self.replies([tooFast]) == [Self.reply("$PMTK001,220,2*31")])
    let gpsdInterval = PMTKCommand(number: 300, fields: ["1000", "0", "0", "0.0", "0.0"]).text
    #expect(Self.replies([gpsdInterval]).last == .setRate(.oneHertz))
  }

  @Test func sentenceMixSwitchesSentencesInGpsdsFieldOrder() throws {
    var handler = MTKCommandHandler(profile: Self.mtk)
    let gpsdMix = PMTKCommand(
      number: 314,
      fields: "0,1,0,1,1,5,1,1,0,0,0,0,0,0,0,0,0,1,0".split(separator: ",").map(String.init))
    let effects = handler.handle(.nmea(gpsdMix.text))
    #expect(effects.first == Self.reply("$PMTK001,314,3*36"))
    #expect(handler.output.nmea["GLL"] == 0)
    #expect(handler.output.nmea["VTG"] == 0)
    #expect(handler.output.nmea["GSV"] == 5)
    #expect(handler.output.nmea["ZDA"] == 1)
    #expect(handler.output.sends(nmea: "GSV", epochIndex: 10))
    #expect(handler.output.sends(nmea: "GSV", epochIndex: 11) == false)
    let query = handler.handle(.nmea(PMTKCommand(number: 414).text))
    #expect(query == [Self.reply(PMTKCommand(number: 514, fields: gpsdMix.fields).text)])
    let bad = PMTKCommand(number: 314, fields: ["1", "9"]).text
    #expect(handler.handle(.nmea(bad)) == [Self.reply("$PMTK001,314,2*37")])
  }

  @Test func baudChangesWithoutAnAnswerAndOddBaudsFail() throws {
    #expect(
      Self.replies([PMTKCommand(number: 251, fields: ["38400"]).text]) == [
        .setBaud(try BytePacing(baud: 38400))
      ])
    #expect(
      Self.replies([PMTKCommand(number: 251, fields: ["1234"]).text]) == [
        Self.reply("$PMTK001,251,2*37")
      ])
  }

  @Test func gpsdsSetupIsAcknowledgedAndUnknownCommandsAreUnsupported() {
    let setup = [
      PMTKCommand(number: 320, fields: ["0"]), PMTKCommand(number: 301, fields: ["2"]),
      PMTKCommand(number: 313, fields: ["1"]), PMTKCommand(number: 424),
    ]
    #expect(
      Self.replies(setup.map(\.text))
        == setup.map { Self.reply(PMTKCommand(number: 1, fields: [String($0.number), "3"]).text) })
    #expect(Self.replies([PMTKCommand(number: 999).text]) == [Self.reply("$PMTK001,999,1*3B")])
  }

  @Test func garbageAndOtherSentencesGetNoAnswer() {
    #expect(
      Self.replies(["", "$", "$PMTK", "$PMTK*00", "$GPGGA,,*56", "$PMTKABC*00", "\u{0}\u{FF}"])
        == [])
  }
}
