import NMEA
import Receiver
import Testing
import UBX

/// `$PUBX,41` and `$PUBX,40` as a u-blox reads them, and what they change: the port's baud and
/// protocols, an NMEA sentence's rate, without an acknowledgement.
@Suite struct PUBXCommandTests {
  /// A PUBX line with its checksum.
  static func line(_ fields: [String]) -> String {
    RawSentence(address: "PUBX", fields: fields).description
  }

  static let arduPilotConfig = line(["41", "1", "0007", "0003", "230400", "0"])

  @Test func parsesArduPilotsPortAndRateCommands() throws {
    #expect(
      try PUBXCommand(parsing: Self.arduPilotConfig)
        == .configurePort(
          portID: 1, inProtocols: [.ubx, .nmea, .rtcm2], outProtocols: [.ubx, .nmea],
          baud: 230_400, autobauding: false))
    #expect(
      try PUBXCommand(parsing: Self.line(["40", "GSV", "0", "0", "0", "0", "0", "0"]))
        == .setRates(sentence: "GSV", rates: [0, 0, 0, 0, 0]))
    #expect(
      try PUBXCommand(parsing: Self.line(["40", "rmc", "0", "2", "0", "0", "0"]))
        == .setRates(sentence: "RMC", rates: [0, 2, 0, 0, 0]))
  }

  /// A line the chip ignores and the field the parser names.
  @Test(arguments: [
    (line(["41", "1", "0007", "0003", "fast", "0"]), "baudrate"),
    (line(["41", "9", "0007", "0003", "9600", "0"]), "portId"),
    (line(["41", "1", "00x7", "0003", "9600", "0"]), "inProto"),
    (line(["41", "1", "0007", "0003", "9600", "2"]), "autobauding"),
    (line(["41", "1", "0007", "0003", "9600"]), "PUBX,41"),
    (line(["40", "GSV", "0", "300", "0", "0", "0", "0"]), "rus1"),
    (line(["40", "G5V", "0", "1", "0", "0", "0", "0"]), "msgId"),
  ])
  func rejectsAMalformedFieldByName(_ line: String, _ field: String) {
    let error = #expect(throws: PUBXCommand.ParseError.self) { try PUBXCommand(parsing: line) }
    guard case .field(let name, let expected) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(name == field)
    #expect(!expected.isEmpty)
  }

  @Test func otherLinesAreNotCommands() {
    #expect(throws: PUBXCommand.ParseError.self) { try PUBXCommand(parsing: "$PUBX,00*33") }
    #expect(throws: PUBXCommand.ParseError.self) { try PUBXCommand(parsing: "$PUBX,41,1*00") }
    #expect(throws: PUBXCommand.ParseError.self) {
      try PUBXCommand(parsing: "$GPGGA,,,,,,0,,,,,,,,*66")
    }
  }

  @Test(arguments: [ReceiverProfile.ubloxM8, .ubloxF9P])
  func pubx41ChangesUART1sBaudAndProtocolsWithoutAnAcknowledgement(_ profile: ReceiverProfile)
    throws
  {
    var handler = UbloxCommandHandler(profile: profile)
    let effects = handler.handle(.nmea(Self.arduPilotConfig))
    #expect(effects == [.setBaud(try BytePacing(baud: 230_400))])
    #expect(handler.baud == 230_400)
    #expect(handler.port.baud == 230_400)
    #expect(handler.port.inProtocols == [.ubx, .nmea, .rtcm2])
    let ubxOnly = handler.handle(.nmea(Self.line(["41", "1", "0001", "0001", "230400", "0"])))
    #expect(!handler.output.nmeaProtocolEnabled && handler.output.ubxProtocolEnabled)
    #expect(ubxOnly == [.setOutput(handler.output)])
    // A bad checksum is ignored, as on the chip.
    #expect(handler.handle(.nmea("$PUBX,41,1,0003,0003,9600,0*00")) == [])
    #expect(handler.baud == 230_400)
  }

  @Test(arguments: [ReceiverProfile.ubloxM8, .ubloxF9P])
  func pubx40SetsTheSentencesUART1Rate(_ profile: ReceiverProfile) {
    var handler = UbloxCommandHandler(profile: profile)
    #expect(handler.output.nmea["GSV"] ?? 0 > 0)
    let effects = handler.handle(.nmea(Self.line(["40", "GSV", "0", "0", "0", "0", "0", "0"])))
    #expect(handler.output.nmea["GSV"] == 0)
    #expect(effects == [.setOutput(handler.output)])
    _ = handler.handle(.nmea(Self.line(["40", "ZDA", "0", "3", "0", "0", "0", "0"])))
    #expect(handler.output.nmea["ZDA"] == 3)
    // The same rate again changes nothing.
    #expect(handler.handle(.nmea(Self.line(["40", "ZDA", "0", "3", "0", "0", "0", "0"]))) == [])
  }
}
