import Receiver
import Simulation
import Testing
import UBX

@Suite struct UbloxCommandHandlerTests {
  static let m8 = ReceiverProfile(
    name: "test-m8", summary: "u-blox 8 for tests", commandSet: .ubloxM8,
    defaultConstellations: [.gps, .glonass], channelLimit: 32, defaultBaud: 9600,
    defaultOutput: OutputSelection(nmeaEveryEpoch: ["RMC", "GGA", "GSA", "GSV"]))
  static var f9: ReceiverProfile {
    var profile = m8
    profile.name = "test-f9"
    profile.commandSet = .ubloxF9
    return profile
  }

  static func ack(_ type: UBXMessageType) -> ReceiverEffect {
    .reply(UBXAcknowledgement.acknowledge(type).bytes)
  }
  static func nak(_ type: UBXMessageType) -> ReceiverEffect {
    .reply(UBXAcknowledgement.refuse(type).bytes)
  }

  @Test func monVERPollAnswersTheFirmwareAndProtocolVersion() throws {
    for (profile, protocolVersion) in [(Self.m8, 18.0), (Self.f9, 27.31)] {
      var handler = UbloxCommandHandler(profile: profile)
      let effects = handler.handle(.ubx(UBXFrame(.monVER)))
      guard case .reply(let bytes) = try #require(effects.first) else {
        Issue.record("no reply")
        continue
      }
      let frame = try UBXFrame(parsing: bytes)
      #expect(frame.messageType == .monVER)
      #expect(UBXVersion(payload: frame.payload)?.protocolVersion == protocolVersion)
    }
  }

  @Test func cfgPRTSwitchesToUBXOnlyAndChangesTheBaudAfterTheACK() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let request = UBXPortConfiguration(
      baud: 115_200, inProtocols: [.ubx, .nmea], outProtocols: [.ubx])
    let effects = handler.handle(.ubx(request.frame))
    var expectedOutput = Self.m8.defaultOutput
    expectedOutput.nmeaProtocolEnabled = false
    #expect(
      effects == [
        Self.ack(.cfgPRT), .setOutput(expectedOutput), .setBaud(try BytePacing(baud: 115_200)),
      ])
    // A poll now reports the new port.
    let poll = handler.handle(.ubx(UBXFrame(.cfgPRT)))
    guard case .reply(let bytes) = try #require(poll.first) else { return }
    let port = try #require(UBXPortConfiguration(payload: try UBXFrame(parsing: bytes).payload))
    #expect(port.baud == 115_200)
    #expect(port.outProtocols == [.ubx])
    #expect(poll.last == Self.ack(.cfgPRT))
  }

  @Test func cfgPRTWithAnOddBaudOrLengthIsRefused() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let odd = UBXPortConfiguration(baud: 12345, inProtocols: [.ubx], outProtocols: [.ubx])
    #expect(handler.handle(.ubx(odd.frame)) == [Self.nak(.cfgPRT)])
    #expect(handler.handle(.ubx(UBXFrame(.cfgPRT, payload: [1, 2, 3]))) == [Self.nak(.cfgPRT)])
    #expect(handler.baud == 9600)
  }

  @Test func cfgMSGSwitchesUBXAndNMEAMessagesAndReportsTheirRates() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let pvt = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1])))
    #expect(pvt.first == Self.ack(.cfgMSG))
    #expect(handler.output.ubx[.navPVT] == 1)
    let gsvOff = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0xF0, 0x03, 0, 0, 0, 0, 0, 0])))
    #expect(gsvOff == [Self.ack(.cfgMSG), .setOutput(handler.output)])
    #expect(handler.output.sends(nmea: "GSV", epochIndex: 0) == false)
    #expect(handler.output.sends(ubx: .navPVT, epochIndex: 7))
    let poll = handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07])))
    #expect(
      poll == [
        .reply(UBXMessageRateCommand.report(.navPVT, uart1Rate: 1).bytes), Self.ack(.cfgMSG),
      ])
    #expect(handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01]))) == [Self.nak(.cfgMSG)])
  }

  @Test func cfgRATESetsTheCadenceAndRefusesWhatItCannotDo() throws {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let fiveHertz = UBXNavigationRate(measurementPeriodMilliseconds: 200, measurementsPerEpoch: 1)
    #expect(
      handler.handle(.ubx(fiveHertz.frame)) == [
        Self.ack(.cfgRATE), .setRate(try CadencePlan(rateHz: 5)),
      ])
    let tooFast = UBXNavigationRate(measurementPeriodMilliseconds: 10, measurementsPerEpoch: 1)
    #expect(handler.handle(.ubx(tooFast.frame)) == [Self.nak(.cfgRATE)])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgRATE))) == [
        .reply(fiveHertz.frame.bytes), Self.ack(.cfgRATE),
      ])
  }

  @Test func unknownCFGIsRefusedAndOtherClassesAndNMEAAreIgnored() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgVALSET, payload: [0, 1, 0, 0]))) == [Self.nak(.cfgVALSET)])
    #expect(handler.handle(.ubx(UBXFrame(messageClass: 0x06, id: 0x42))).count == 1)
    #expect(handler.handle(.ubx(UBXFrame(messageClass: 0x13, id: 0x40, payload: [1, 2]))) == [])
    #expect(handler.handle(.nmea("$PUBX,05*36")) == [])
  }

  @Test func f9ValsetAppliesInRAMAndValgetReportsIt() throws {
    var handler = UbloxCommandHandler(profile: Self.f9)
    let valset = try UBXFrame(parsing: UBXConfigurationMessageBytes.valset)
    let effects = handler.handle(.ubx(valset))
    var expected = Self.m8.defaultOutput
    expected.ubx[.navPVT] = 1
    expected.nmeaProtocolEnabled = false
    #expect(
      effects == [Self.ack(.cfgVALSET), .setOutput(expected), .setRate(try CadencePlan(rateHz: 5))])
    let get = handler.handle(.ubx(try UBXFrame(parsing: UBXConfigurationMessageBytes.valgetPoll)))
    guard case .reply(let bytes) = try #require(get.first) else { return }
    #expect(
      try UBXFrame(parsing: bytes).payload == [
        1, 0, 0, 0, 0x01, 0x00, 0x21, 0x30, 0xC8, 0x00, 0x01, 0x00, 0x52, 0x40, 0x80, 0x25, 0, 0,
      ])
    let unknownKey = UBXFrame(.cfgVALSET, payload: [0, 1, 0, 0, 0xFE, 0x0F, 0x91, 0x20, 1])
    #expect(handler.handle(.ubx(unknownKey)) == [Self.nak(.cfgVALSET)])
  }

  /// The UBX gpsd 3.22 writes to switch a protocol-18 chip to binary (`driver_ubx.c`,
  /// `ubx_cfg_prt` and its message lists); afterwards the chip sends the NAV messages gpsd
  /// decodes, each CFG acknowledged, and no NMEA.
  @Test func gpsdsSwitchToBinaryTurnsOnTheNavigationMessagesItDecodes() {
    var handler = UbloxCommandHandler(profile: Self.m8)
    let port = UBXPortConfiguration(
      baud: 9600, inProtocols: [.ubx, .nmea, .rtcm2, .rtcm3], outProtocols: [.ubx, .nmea, .rtcm3])
    let rates: [(UInt8, UInt8, UInt8)] =
      [(0x01, 0x04, 1), (0x01, 0x20, 1), (0x01, 0x06, 0), (0x01, 0x30, 0)]
      + [0x01, 0x07, 0x11, 0x35, 0x61].map { (0x01, $0, 1) } + [(0x01, 0x26, 0xFF)]
      + [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09].map { (0xF0, $0, 0) }
    let frames =
      [port.frame, UBXFrame(.monVER)]
      + rates.map { UBXFrame(.cfgMSG, payload: [$0.0, $0.1, $0.2]) }
    let effects = frames.flatMap { handler.handle(.ubx($0)) }
    let acknowledgements = effects.filter { $0 == Self.ack(.cfgPRT) || $0 == Self.ack(.cfgMSG) }
    #expect(acknowledgements.count == 1 + rates.count)
    #expect(!effects.contains(Self.nak(.cfgMSG)))
    let encoder = UBXNavigationEncoder(profile: Self.m8)
    let fix = UBXNavigationEncoderTests.fix(epoch: 0)
    #expect(
      encoder.frames(for: fix, output: handler.output, epochIndex: 0).map(\.messageType) == [
        .navPVT, .navPOSECEF, .navDOP, .navVELECEF, .navSAT, .navTIMEGPS, .navEOE,
      ])
    #expect(
      ["RMC", "GGA", "GSA", "GSV"].allSatisfy { !handler.output.sends(nmea: $0, epochIndex: 0) })
  }

  @Test func f9RefusesTheMessagesItNoLongerHas() {
    var handler = UbloxCommandHandler(profile: Self.f9)
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x06, 1]))) == [Self.nak(.cfgMSG)])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x30, 1]))) == [Self.nak(.cfgMSG)])
    #expect(
      handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x35, 1]))).first == Self.ack(.cfgMSG))
  }

  /// pyubx2 decodes every answer (MON-VER, CFG-PRT, CFG-MSG, CFG-RATE, CFG-VALGET, ACK, NAK)
  /// with zero errors.
  @Test func pyubx2DecodesEveryAnswer() throws {
    var m8 = UbloxCommandHandler(profile: Self.m8)
    var f9 = UbloxCommandHandler(profile: Self.f9)
    let polls = [
      UBXFrame(.monVER), UBXFrame(.cfgPRT), UBXFrame(.cfgMSG, payload: [0xF0, 0x03]),
      UBXFrame(.cfgRATE), UBXFrame(messageClass: 0x06, id: 0x42),
    ]
    let valget = try UBXFrame(parsing: UBXConfigurationMessageBytes.valgetPoll)
    let effects =
      polls.flatMap { m8.handle(.ubx($0)) } + f9.handle(.ubx(UBXFrame(.monVER)))
      + f9.handle(.ubx(valget))
    let bytes = effects.flatMap { effect -> [UInt8] in
      guard case .reply(let bytes) = effect else { return [] }
      return bytes
    }
    let decoded = try UBXNavigationEncoderTests.decode(bytes)
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let identities = (decoded["messages"] as? [[String: Any]])?.map { $0["identity"] as? String }
    #expect(
      identities == [
        "MON-VER", "CFG-PRT", "ACK-ACK", "CFG-MSG", "ACK-ACK", "CFG-RATE", "ACK-ACK", "ACK-NAK",
        "MON-VER", "CFG-VALGET", "ACK-ACK",
      ])
  }

  /// A chip started with `--baud 115200 --rate 5` reports that line speed and rate when polled,
  /// not its factory 9600 baud and 1 Hz.
  @Test func theChipStartsAtTheConfiguredBaudAndRate() throws {
    let handler = try #require(
      Self.m8.makeCommandHandler(baud: 115_200, periodMilliseconds: 200) as? UbloxCommandHandler)
    #expect(handler.port.baud == 115_200)
    #expect(handler.rate.measurementPeriodMilliseconds == 200)
  }

  @Test func profilesGetTheirChipsHandler() {
    #expect(Self.m8.makeCommandHandler() is UbloxCommandHandler)
    #expect(ReceiverProfile.generic.makeCommandHandler() is SilentCommandHandler)
    var mtk = Self.m8
    mtk.commandSet = .mtk
    #expect(mtk.makeCommandHandler() is MTKCommandHandler)
  }
}

/// The pyubx2 reference frames of `UBXConfigurationMessageTests` (UBXTests), repeated here.
enum UBXConfigurationMessageBytes {
  static let valset: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8A, 0x14, 0x00, 0x00, 0x01, 0x00, 0x00, 0x07, 0x00, 0x91, 0x20, 0x01, 0x02,
    0x00, 0x74, 0x10, 0x00, 0x01, 0x00, 0x21, 0x30, 0xC8, 0x00, 0xFE, 0x1F,
  ]
  static let valgetPoll: [UInt8] = [
    0xB5, 0x62, 0x06, 0x8B, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x21, 0x30, 0x01, 0x00,
    0x52, 0x40, 0x82, 0xD3,
  ]
}
