import Testing
import UBX

@testable import Receiver

/// The F9P's legacy CFG-GNSS is a view of its `CFG-SIGNAL-*` keys: a poll shows what the keys
/// enable, a setting is checked against them, and a poll written back is taken.
@Suite struct UbloxLegacyGNSSViewTests {
  typealias Cases = UbloxConfigurationTests
  typealias Frames = UbloxConfigurationFrames

  /// The polled CFG-GNSS of `handler`.
  static func systems(_ handler: inout UbloxCommandHandler) -> UBXGNSSConfiguration? {
    Cases.poll(&handler, .cfgGNSS).flatMap(UBXGNSSConfiguration.init(payload:))
  }

  /// The flags of the block of `gnssID` in `gnss`.
  static func flags(_ gnss: UBXGNSSConfiguration?, _ gnssID: UInt8) -> UInt32? {
    gnss?.blocks.first { $0.gnssID == gnssID }?.flags
  }

  @Test func aFreshF9PReportsTheSystemsAndSignalsItsKeysEnable() {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let gnss = Self.systems(&handler)
    // GPS L1C/A + L2C, Galileo E1 + E5b, BeiDou B1I + B2I, GLONASS L1 + L2, all enabled.
    #expect(Self.flags(gnss, 0).map { $0 & 0x00FF_0001 } == 0x0011_0001)
    #expect(Self.flags(gnss, 2).map { $0 & 0x00FF_0001 } == 0x0021_0001)
    #expect(Self.flags(gnss, 3).map { $0 & 0x00FF_0001 } == 0x0011_0001)
    #expect(Self.flags(gnss, 6).map { $0 & 0x00FF_0001 } == 0x0011_0001)
  }

  @Test func aValsetShowsInThePollAndAPollWrittenBackIsTaken() throws {
    var handler = UbloxCommandHandler(profile: UbloxCommandHandlerTests.f9)
    let off = Frames.valset([("CFG-SIGNAL-GPS_ENA", 0), ("CFG-SIGNAL-GLO_ENA", 0)])
    #expect(handler.handle(.ubx(off)).first == Cases.ack(.cfgVALSET))
    let polled = try #require(Cases.poll(&handler, .cfgGNSS))
    let gnss = UBXGNSSConfiguration(payload: polled)
    #expect(Self.flags(gnss, 0).map { $0 & 1 } == 0)
    #expect(Self.flags(gnss, 6).map { $0 & 1 } == 0)
    #expect(handler.handle(.ubx(UBXFrame(.cfgGNSS, payload: polled))) == [Cases.ack(.cfgGNSS)])
    #expect(Cases.poll(&handler, .cfgGNSS) == polled)
  }
}
