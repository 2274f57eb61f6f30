import NMEA
import Receiver
import Simulation
import Testing
import UBX

/// A u-blox answers `$xxGNQ,msgId` (and GPQ, GLQ, GAQ, GBQ) with that sentence of its last
/// epoch, whatever its rate, and ignores any other line; the encoder writes the reply.
@Suite struct NMEAPollTests {
  @Test(arguments: [
    ("$EIGNQ,RMC*24", "RMC"), ("$EIGNQ,GBS*2E", "GBS"), ("$EIGPQ,DTM*3B", "DTM"),
    ("$EIGNQ,VLW*35", "VLW"), ("$PUBX,00*33", "PUBX,00"), ("$PUBX,03*30", "PUBX,03"),
    ("$PUBX,04*37", "PUBX,04"),
  ])
  func aPollNamesItsSentence(_ line: String, _ sentence: String) {
    #expect(NMEAPoll(parsing: line)?.sentence == sentence)
  }

  @Test(arguments: [
    "$EIGNQ,RMC*25", "$EIGNQ,RMC", "$EIGNQ*3F", "$EIGNQ,RMC,1*38", "$EIGSV,RMC*3C",
    "$PUBX,01*32", "$PUBX,40,GBS,0,1,0,0,0,0*5B",
  ])
  func anythingElseIsNoPoll(_ line: String) {
    #expect(NMEAPoll(parsing: line) == nil)
  }

  @Test(arguments: [ReceiverProfile.ubloxM8, .ubloxF9P])
  func theChipAnswersAStandardPollFromTheLastEpoch(_ profile: ReceiverProfile) throws {
    var handler = UbloxCommandHandler(profile: profile)
    let gbs = try #require(UBXMessageType(nmeaSentence: "GBS"))
    #expect(handler.handle(.nmea("$EIGNQ,GBS*2E")) == [.replyFromEpoch(gbs)])
    #expect(handler.handle(.nmea("$EIGNQ,GBS*2F")).isEmpty)
  }

  @Test func noPollIsAnsweredWhileUART1SendsNoNMEA() throws {
    var handler = UbloxCommandHandler(profile: .ubloxM8)
    var uart1 = handler.port
    uart1.outProtocols = [.ubx]
    _ = handler.handle(.ubx(uart1.frame))
    #expect(!handler.output.nmeaProtocolEnabled)
    #expect(handler.handle(.nmea("$EIGNQ,RMC*24")).isEmpty)
  }

  @Test func theReplyIsTheSentenceAsTheEpochWritesItOnceWhateverItsRate() throws {
    let encoder = ReceiverEncoder(profile: .ubloxF9P)
    let fix = try ProfileDecodeTests.fix(epoch: 2)
    let gbs = try #require(UBXMessageType(nmeaSentence: "GBS"))
    let reply = try #require(encoder.reply(gbs, for: fix))
    var switchedOn = encoder
    switchedOn.output.nmea["GBS"] = 1
    let epoch = switchedOn.sentences(for: fix, epochIndex: 0).filter { $0.type == "GBS" }
    #expect(epoch.count == 1)
    #expect(reply == epoch.map(\.lineBytes).joined().map { $0 })
    let gsa = try #require(UBXMessageType(nmeaSentence: "GSA"))
    let pages = String(decoding: try #require(encoder.reply(gsa, for: fix)), as: UTF8.self)
    #expect(pages.split(separator: "\r\n").count == 4, "one GSA per system")
  }
}
