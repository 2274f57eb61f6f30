import Receiver
import Testing
import UBX

/// A u-blox chip ignores what arrives in a protocol its UART1 does not take in: CFG-PRT's
/// `inProtoMask` on the M8, `CFG-UART1INPROT-*` on the F9P.
@Suite struct UbloxInputProtocolTests {
  /// A MON-VER poll, which the chip answers whenever it reads UBX.
  static let versionPoll = ClientMessage.ubx(UBXFrame(.monVER))
  /// PUBX,41 for UART1 at 9600 Bd, taking in and sending out the protocols of `inMask`.
  static func pubx41(inMask: String) -> ClientMessage {
    .nmea(PUBXCommandTests.line(["41", "1", inMask, "0003", "9600", "0"]))
  }

  /// CFG-PRT for UART1 at 9600 Bd reading only `input`, writing UBX and NMEA.
  static func uart1(reading input: UBXPortConfiguration.Protocols) -> ClientMessage {
    .ubx(UBXPortConfiguration(baud: 9600, inProtocols: input, outProtocols: [.ubx, .nmea]).frame)
  }

  @Test func theM8IgnoresUBXWithUBXInputOffUntilPUBX41TurnsItBackOn() {
    var handler = UbloxCommandHandler(profile: .ubloxM8)
    #expect(
      handler.handle(Self.uart1(reading: [.nmea])).first == UbloxCommandHandlerTests.ack(.cfgPRT))
    #expect(handler.handle(Self.versionPoll) == [])
    #expect(handler.handle(.ubx(UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1]))) == [])
    #expect(handler.output.ubx[.navPVT] == nil)
    // NMEA still gets through: PUBX,41 takes UBX in again.
    _ = handler.handle(Self.pubx41(inMask: "0003"))
    #expect(handler.handle(Self.versionPoll).count == 1)
  }

  @Test func theM8IgnoresNMEAWithNMEAInputOff() {
    var handler = UbloxCommandHandler(profile: .ubloxM8)
    _ = handler.handle(Self.uart1(reading: [.ubx]))
    let rates = handler.output
    let gsvOff = ClientMessage.nmea(
      PUBXCommandTests.line(["40", "GSV", "0", "0", "0", "0", "0", "0"]))
    #expect(handler.handle(gsvOff) == [])
    #expect(handler.output == rates)
    #expect(handler.handle(Self.versionPoll).count == 1)
  }

  @Test func theF9PIgnoresUBXWithCFGUART1INPROTUBXOff() {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    let off = UbloxConfigurationFrames.valset([("CFG-UART1INPROT-UBX", 0)])
    #expect(handler.handle(.ubx(off)).first == UbloxCommandHandlerTests.ack(.cfgVALSET))
    #expect(handler.handle(Self.versionPoll) == [])
    let on = UbloxConfigurationFrames.valset([("CFG-UART1INPROT-UBX", 1)])
    #expect(handler.handle(.ubx(on)) == [])
    // NMEA is still read.
    let gsvOff = ClientMessage.nmea(
      PUBXCommandTests.line(["40", "GSV", "0", "0", "0", "0", "0", "0"]))
    #expect(handler.handle(gsvOff) == [.setOutput(handler.output)])
  }

  @Test func theF9PIgnoresNMEAWithCFGUART1INPROTNMEAOff() {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    _ = handler.handle(.ubx(UbloxConfigurationFrames.valset([("CFG-UART1INPROT-NMEA", 0)])))
    #expect(handler.handle(Self.pubx41(inMask: "0003")) == [])
    #expect(handler.baud == ReceiverProfile.ubloxF9P.defaultBaud)
  }

  /// A legacy CFG-PRT or PUBX,41 for UART1 sets the F9P's input keys, as the chip translates it.
  @Test func theF9PsPUBX41SetsItsInputKeys() {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    _ = handler.handle(Self.pubx41(inMask: "0002"))
    #expect(handler.handle(Self.versionPoll) == [])
    _ = handler.handle(Self.pubx41(inMask: "0023"))
    let readBack = handler.handle(
      .ubx(
        UbloxConfigurationFrames.valget(names: [
          "CFG-UART1INPROT-UBX", "CFG-UART1INPROT-NMEA", "CFG-UART1INPROT-RTCM3X",
        ])))
    #expect(UbloxConfigurationFrames.answer(readBack)?.map(\.value) == [1, 1, 1])
  }
}
