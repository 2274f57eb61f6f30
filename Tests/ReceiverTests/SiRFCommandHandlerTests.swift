import Receiver
import SiRF
import Testing

/// The SiRF profile's chip against what gpsd 3.22 writes to it without `-b`: the NMEA probe
/// `$PSRF100,0,4800,8,1,0`, then the binary messages of its SiRF driver (`driver_sirf.c`).
@Suite struct SiRFCommandHandlerTests {
  static let toBinary = "$PSRF100,0,4800,8,1,0*0F"

  static func binaryHandler() -> SiRFCommandHandler {
    var handler = SiRFCommandHandler(profile: .sirf)
    _ = handler.handle(.nmea(toBinary))
    return handler
  }

  static func reply(_ frame: SiRFFrame) -> ReceiverEffect { .reply(frame.bytes) }

  @Test func psrf100SwitchesToBinaryAtTheBaud() throws {
    var handler = SiRFCommandHandler(profile: .sirf)
    let effects = handler.handle(.nmea(Self.toBinary))
    #expect(handler.isBinary)
    #expect(!handler.output.nmeaProtocolEnabled)
    #expect(handler.output.sirf == SiRFNavigationEncoder.defaultRates)
    #expect(effects == [.setOutput(handler.output), .setBaud(try BytePacing(baud: 4800))])
  }

  @Test(arguments: [
    "$PSRF100,0,4801,8,1,0*0E", "$PSRF100,0,4800,7,1,0*00", "$PSRF100,0,4800,8,1,0*0D",
    "$PSRF100,2,4800,8,1,0*0D", "$PSRF100,0*3A",
  ])
  func badPSRF100ChangesNothing(_ line: String) {
    var handler = SiRFCommandHandler(profile: .sirf)
    #expect(handler.handle(.nmea(line)) == [])
    #expect(!handler.isBinary)
  }

  @Test func binaryInputIsIgnoredInNMEAMode() {
    var handler = SiRFCommandHandler(profile: .sirf)
    #expect(handler.handle(.sirf(SiRFFrame(id: 132, fields: [0]))) == [])
  }

  @Test func versionPollIsAnsweredWithTheGSD4eVersion() throws {
    var handler = Self.binaryHandler()
    let effects = handler.handle(.sirf(SiRFFrame(id: 132, fields: [0])))
    #expect(effects.first == Self.reply(SiRFReplies.acknowledge(132)))
    guard case .reply(let bytes) = effects.last else {
      Issue.record("no version: \(effects)")
      return
    }
    let version = try SiRFFrame(parsing: bytes)
    #expect(version.id == 6)
    let text = String(decoding: version.payload[3...].prefix { $0 != 0 }, as: UTF8.self)
    #expect(text == "GSD4e_4.0.4-P1_RPATCH.07-GS008-F-GPS-4R-1201128 01/12/2012 012")
  }

  @Test func navigationParametersFollowModeControl() throws {
    var handler = Self.binaryHandler()
    // gpsd's mode control: degraded mode off, track smoothing on.
    let modeControl = SiRFFrame(id: 136, fields: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    #expect(handler.handle(.sirf(modeControl)) == [Self.reply(SiRFReplies.acknowledge(136))])
    let effects = handler.handle(.sirf(SiRFFrame(id: 152, fields: [0])))
    guard case .reply(let bytes) = effects.last else {
      Issue.record("no parameters: \(effects)")
      return
    }
    let parameters = try SiRFFrame(parsing: bytes)
    #expect(parameters.id == 19)
    #expect(parameters.payload.count == 65)
    #expect(parameters.payload[9] == 0)
    #expect(parameters.payload[12] == 1)
  }

  @Test func messageRateSwitchesOneMessage() {
    var handler = Self.binaryHandler()
    // gpsd's "unset MID 0x29", then "every 3 s" for MID 4.
    let effects = handler.handle(.sirf(SiRFFrame(id: 166, fields: [0, 0x29, 0, 0, 0, 0, 0])))
    #expect(effects.first == Self.reply(SiRFReplies.acknowledge(166)))
    #expect(handler.output.sirf[41] == nil)
    #expect(effects.last == .setOutput(handler.output))
    _ = handler.handle(.sirf(SiRFFrame(id: 166, fields: [0, 4, 3, 0, 0, 0, 0])))
    #expect(handler.output.sirf[4] == 3)
  }

  @Test func initializeDataSourceRestarts() {
    var handler = Self.binaryHandler()
    // gpsd's "disable subframe": reset configuration 0, a hot start.
    let disableSubframe = SiRFFrame(id: 128, fields: [UInt8](repeating: 0, count: 22) + [12, 0])
    #expect(
      handler.handle(.sirf(disableSubframe)) == [
        Self.reply(SiRFReplies.acknowledge(128)),
        .restart(ReceiverRestart(start: .hot, powersUp: true)),
      ])
    let cold = SiRFFrame(id: 128, fields: [UInt8](repeating: 0, count: 22) + [12, 0x04])
    #expect(
      handler.handle(.sirf(cold)).last == .restart(ReceiverRestart(start: .cold, powersUp: true)))
    let factory = SiRFFrame(id: 128, fields: [UInt8](repeating: 0, count: 22) + [12, 0x08])
    _ = handler.handle(.sirf(factory))
    #expect(!handler.isBinary)
    #expect(handler.output == ReceiverProfile.sirf.defaultOutput(baud: 4800))
    #expect(handler.handle(.sirf(SiRFFrame(id: 132, fields: [0]))) == [])
  }

  @Test func switchToNMEASetsTheRatesAndBaud() throws {
    var handler = Self.binaryHandler()
    // GGA 1, GLL 0, GSA 1, GSV 5, RMC 1, VTG 0, MSS 0, unused, ZDA 0, unused; 9600 baud.
    let fields: [UInt8] = [
      2, 1, 1, 0, 1, 1, 1, 5, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0x25, 0x80,
    ]
    let effects = handler.handle(.sirf(SiRFFrame(id: 129, fields: fields)))
    #expect(!handler.isBinary)
    #expect(handler.output.nmea == ["GGA": 1, "GSA": 1, "GSV": 5, "RMC": 1])
    #expect(
      effects.suffix(2) == [.setOutput(handler.output), .setBaud(try BytePacing(baud: 9600))])
  }

  @Test func unknownAndMalformedMessagesAreRefused() {
    var handler = Self.binaryHandler()
    #expect(handler.handle(.sirf(SiRFFrame(id: 200))) == [Self.reply(SiRFReplies.refuse(200))])
    #expect(
      handler.handle(.sirf(SiRFFrame(id: 166, fields: [0]))) == [
        Self.reply(SiRFReplies.refuse(166))
      ])
    #expect(
      handler.handle(.sirf(SiRFFrame(id: 128, fields: [0]))) == [
        Self.reply(SiRFReplies.refuse(128))
      ])
    #expect(handler.handle(.sirf(SiRFFrame(payload: []))) == [])
  }

  @Test func framesOfClientInputAreDemultiplexed() {
    var demultiplexer = InputDemultiplexer()
    let probe: [UInt8] = [0xA0, 0xA2, 0x00, 0x02, 0x84, 0x00, 0x00, 0x84, 0xB0, 0xB3]
    let bytes = Array("$PSRF100,0,4800,8,1,0*0F\r\n".utf8) + probe + probe.prefix(5)
    #expect(
      demultiplexer.append(bytes) == [
        .nmea("$PSRF100,0,4800,8,1,0*0F"), .sirf(SiRFFrame(id: 132, fields: [0])),
      ])
    #expect(demultiplexer.append(probe.dropFirst(5)) == [.sirf(SiRFFrame(id: 132, fields: [0]))])
    var damaged = probe
    damaged[9] = 0
    #expect(demultiplexer.append(damaged + probe) == [.sirf(SiRFFrame(id: 132, fields: [0]))])
  }

  /// MID 166's modes: 1 polls (the output stays), 5 sets the navigation debug messages (gpsd's
  /// last configuration step turns MID 7 off with it), 3 the default navigation messages.
  @Test func messageRateModesSetTheirGroups() {
    var handler = Self.binaryHandler()
    let before = handler.output
    let poll = handler.handle(.sirf(SiRFFrame(id: 166, fields: [1, 0x29, 0, 0, 0, 0, 0])))
    #expect(poll == [Self.reply(SiRFReplies.acknowledge(166)), .setOutput(before)])
    #expect(handler.output == before)
    _ = handler.handle(.sirf(SiRFFrame(id: 166, fields: [5, 0, 0, 0, 0, 0, 0])))
    #expect(handler.output.sirf[7] == nil)
    #expect(handler.output.sirf[2] == 1)
    _ = handler.handle(.sirf(SiRFFrame(id: 166, fields: [3, 0, 2, 0, 0, 0, 0])))
    #expect(handler.output.sirf[2] == 2 && handler.output.sirf[4] == 2)
    #expect(
      handler.handle(.sirf(SiRFFrame(id: 166, fields: [6, 0, 1, 0, 0, 0, 0]))) == [
        Self.reply(SiRFReplies.refuse(166))
      ])
  }
}
