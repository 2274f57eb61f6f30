import Receiver
import Simulation
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
    // PMTK313,1 also brings the SBAS satellites into the sky.
    let sbasOn = ReceiverEffect.setTracking([.gps, .sbas], sbasPRNs: Set(SBASSatellite.prns))
    var expected = setup.map {
      Self.reply(PMTKCommand(number: 1, fields: [String($0.number), "3"]).text)
    }
    expected.insert(sbasOn, at: 3)
    #expect(Self.replies(setup.map(\.text)) == expected)
    #expect(Self.replies([PMTKCommand(number: 999).text]) == [Self.reply("$PMTK001,999,1*3B")])
  }

  @Test func garbageAndOtherSentencesGetNoAnswer() {
    #expect(
      Self.replies(["", "$", "$PMTK", "$PMTK*00", "$GPGGA,,*56", "$PMTKABC*00", "\u{0}\u{FF}"])
        == [])
  }

  /// PMTK101–103 reboot the chip and keep its settings, without a `PMTK001` (the packet
  /// manuals list them as unacknowledged); the start-up messages come from the restart.
  @Test(arguments: [
    ("$PMTK101*32", ReceiverRestart.Start.hot), ("$PMTK102*31", .warm),
    ("$PMTK103*30", .cold),
  ])
  func restartsRebootWithoutAnAnswer(_ line: String, _ start: ReceiverRestart.Start) {
    var handler = MTKCommandHandler(profile: Self.mtk)
    _ = handler.handle(.nmea("$PMTK314,0,1,0,1,1,5,0,0,0,0,0,0,0,0,0,0,0,0,0*2C"))
    let configured = handler.output
    #expect(
      handler.handle(.nmea(line)) == [.restart(ReceiverRestart(start: start, powersUp: true))])
    #expect(handler.output == configured)
  }

  /// PMTK104 also clears the configuration: the factory output, 1 Hz and the factory baud.
  @Test func fullColdStartRestoresTheFactorySettings() throws {
    var handler = MTKCommandHandler(profile: Self.mtk)
    _ = handler.handle(.nmea("$PMTK314,0,1,0,1,1,5,0,0,0,0,0,0,0,0,0,0,0,0,0*2C"))
    let factory = Self.mtk.defaultOutput(baud: 9600)
    #expect(handler.output != factory)
    #expect(
      handler.handle(.nmea("$PMTK104*37")) == [
        .setOutput(factory), .setRate(.oneHertz), .setBaud(try BytePacing(baud: 9600)),
        .restart(ReceiverRestart(start: .cold, powersUp: true)),
      ])
    #expect(handler.output == factory)
  }

  /// With SBAS turned on, a full cold start (SBAS off from the factory) also takes the SBAS
  /// satellites out of the sky, before the restart, which comes last.
  @Test func fullColdStartTurnsSBASOffAgain() throws {
    var handler = MTKCommandHandler(profile: Self.mtk)
    _ = handler.handle(.nmea(PMTKCommand(number: 313, fields: ["1"]).text))
    #expect(handler.settings.sbasEnabled)
    #expect(
      handler.handle(.nmea("$PMTK104*37")) == [
        .setOutput(Self.mtk.defaultOutput(baud: 9600)), .setRate(.oneHertz),
        .setBaud(try BytePacing(baud: 9600)),
        .setTracking([.gps], sbasPRNs: Set(SBASSatellite.prns)),
        .restart(ReceiverRestart(start: .cold, powersUp: true)),
      ])
    #expect(!handler.settings.sbasEnabled)
    // A chip started with SBAS (`--constellations gps,sbas`) has it on from power-up.
    let started = MTKCommandHandler(profile: Self.mtk, constellations: [.gps, .sbas])
    #expect(started.settings.sbasEnabled)
  }

  /// Each setting is acknowledged, kept, and reported by its query in the reply's real form.
  @Test func settingsAreKeptAndPolledBack() {
    var handler = MTKCommandHandler(profile: Self.mtk)
    func send(_ number: Int, _ fields: [String] = []) -> [ReceiverEffect] {
      handler.handle(.nmea(PMTKCommand(number: number, fields: fields).text))
    }
    func ack(_ number: Int, _ flag: Int) -> ReceiverEffect {
      Self.reply(PMTKCommand(number: 1, fields: [String(number), String(flag)]).text)
    }
    #expect(send(400) == [Self.reply("$PMTK500,1000,0,0,0.0,0.0*1A")])
    #expect(send(220, ["200"]).first == ack(220, 3))
    #expect(send(400) == [Self.reply("$PMTK500,200,0,0,0.0,0.0*29")])
    #expect(send(401) == [Self.reply("$PMTK501,0*2A")])
    #expect(send(301, ["2"]) == [ack(301, 3)])
    #expect(send(401) == [Self.reply("$PMTK501,2*28")])
    #expect(send(301, ["3"]) == [ack(301, 2)])
    #expect(send(413) == [Self.reply("$PMTK513,0*29")])
    #expect(
      send(313, ["1"])
        == [ack(313, 3), .setTracking([.gps, .sbas], sbasPRNs: Set(SBASSatellite.prns))])
    #expect(send(413) == [Self.reply("$PMTK513,1*28")])
    #expect(send(447) == [Self.reply("$PMTK527,0.00*00")])
    #expect(send(386, ["0.4"]) == [ack(386, 3)])
    #expect(send(447) == [Self.reply("$PMTK527,0.40*04")])
    #expect(send(386, ["0.5"]) == [ack(386, 2)])
    #expect(send(869, ["0"]) == [Self.reply("$PMTK869,2,1,3*29")])
    #expect(send(869, ["1", "0"]) == [ack(869, 3)])
    #expect(send(869, ["0"]) == [Self.reply("$PMTK869,2,0,0*2B")])
    #expect(send(886, ["2"]) == [ack(886, 3)])
    #expect(send(886, ["4"]) == [ack(886, 2)])
    #expect(send(225, ["8"]) == [ack(225, 3)])
    #expect(send(225, ["3"]) == [ack(225, 2)])
    #expect(send(319, ["0"]) == [ack(319, 3)])
    #expect(handler.settings.navigationMode == 2)
    #expect(handler.settings.periodicMode == 8)
    #expect(!handler.settings.sbasIntegrity)
    // The full cold start forgets them all.
    _ = send(104)
    #expect(handler.settings == MTKSettings())
  }

  /// PMTK353 selects constellations on an MT3333/3339; an MT3301 tracks GPS only and does not
  /// know the command.
  @Test func constellationSelectionIsUnsupportedOnTheMT3301() {
    #expect(
      Self.replies([PMTKCommand(number: 353, fields: ["1", "1"]).text]) == [
        Self.reply("$PMTK001,353,1*37")
      ])
  }
}
