import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// CFG-NMEA (u-blox 8) and the `CFG-NMEA-*` keys (u-blox 9) take effect on the sentences from
/// the next epoch, on the manual clock: the NMEA version (GSA's system ID and GSV's signal ID
/// come with 4.10), the main talker, GSV under the main talker, and the most satellites a GSV
/// group lists.
@Suite(.timeLimit(.minutes(5))) struct NMEAConfigurationEffectTests {
  typealias Epoch = ConfiguredEpoch

  /// CFG-NMEA version 1 (20 bytes, u-blox 8 / M8 receiver description): `nmeaVersion`,
  /// `numSV`, `mainTalkerId` and `gsvTalkerId`, every other field 0.
  static func nmea(version: UInt8 = 0x41, satellites: UInt8 = 0, main: UInt8 = 0, gsv: UInt8 = 0)
    -> UBXFrame
  {
    let payload: [UInt8] =
      [0, version, satellites, 0, 0, 0, 0, 0, 0, main, gsv, 1] + [UInt8](repeating: 0, count: 8)
    return UBXFrame(.cfgNMEA, payload: payload)
  }

  /// The largest GSV group of an epoch.
  static func largestGroup(_ epoch: Epoch) -> Int { epoch.gsvGroups.values.max() ?? 0 }

  @Test func theM8WritesTheVersionTalkersAndLimitCFGNMEASets() throws {
    let harness = try Epoch.harness(.ubloxM8)
    defer { harness.stop() }
    let factory = Epoch(try harness.step())
    #expect(factory.gsaSystemIDs == [1, 2])
    #expect(Set(factory.gsvGroups.keys) == ["GP/1", "GL/1"])
    try #require(Self.largestGroup(factory) > 8, "the sky must show the limit of 8")

    let version40 = try Epoch(after: Self.nmea(version: 0x40), on: harness)
    #expect(version40.gsaSystemIDs == [nil, nil])
    #expect(Set(version40.gsvGroups.keys) == ["GP", "GL"])
    #expect(version40.rmcTalker == "GN")

    let gpTalker = try Epoch(after: Self.nmea(main: 1), on: harness)
    #expect(gpTalker.gsaSystemIDs == [1, 2])
    #expect(gpTalker.rmcTalker == "GP")
    #expect(gpTalker.gsvTalkers == ["GP", "GL"])

    let gsvUnderMain = try Epoch(after: Self.nmea(gsv: 1), on: harness)
    #expect(gsvUnderMain.rmcTalker == "GN")
    #expect(gsvUnderMain.gsvTalkers == ["GN"])

    let limited = try Epoch(after: Self.nmea(satellites: 8), on: harness)
    #expect(Self.largestGroup(limited) == 8)
    #expect(limited.satellitesUsed == limited.satellitesInGSA)
  }

  @Test func theF9PWritesTheVersionTalkersAndLimitOfItsNMEAKeys() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let (version, satellites, main, gsv): (UInt32, UInt32, UInt32, UInt32) = (
      0x2093_0001, 0x2093_0002, 0x2093_0031, 0x2093_0032
    )
    let factory = Epoch(try harness.step())
    #expect(factory.gsvTalkers == ["GP", "GL", "GA", "GB"])
    #expect(factory.rmcTalker == "GN")
    try #require(Self.largestGroup(factory) > 8, "the sky must show the limit of 8")

    // NMEA 4.0 numbers no Galileo or BeiDou satellite and has no system or signal IDs.
    let version40 = try Epoch(after: Epoch.valueSet([(version, 40)]), on: harness)
    #expect(version40.gsvTalkers == ["GP", "GL"])
    #expect(version40.gsaSystemIDs == [nil, nil])
    #expect(Set(version40.gsvGroups.keys) == ["GP", "GL"])

    let back = try Epoch(after: Epoch.valueSet([(version, 41), (main, 1)]), on: harness)
    #expect(back.gsvTalkers == ["GP", "GL", "GA", "GB"])
    #expect(back.rmcTalker == "GP")

    let underMain = try Epoch(after: Epoch.valueSet([(main, 0), (gsv, 1)]), on: harness)
    #expect(underMain.gsvTalkers == ["GN"])

    let limited = try Epoch(after: Epoch.valueSet([(gsv, 0), (satellites, 8)]), on: harness)
    #expect(Self.largestGroup(limited) == 8)
    #expect(limited.gsvTalkers == ["GP", "GL", "GA", "GB"])
  }

  /// The F9P takes the legacy CFG-NMEA as the chip translates it, into its CFG-NMEA keys.
  @Test func theF9PTranslatesALegacyCFGNMEAIntoItsKeys() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let version40 = try Epoch(after: Self.nmea(version: 0x40, main: 1), on: harness)
    #expect(version40.gsvTalkers == ["GP", "GL"])
    #expect(version40.gsaSystemIDs == [nil, nil])
    #expect(version40.rmcTalker == "GP")
    let back = try Epoch(after: Self.nmea(version: 0x41), on: harness)
    #expect(back.gsvTalkers == ["GP", "GL", "GA", "GB"])
    #expect(back.rmcTalker == "GN")
  }
}
