import MockGPS
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// CFG-GNSS (u-blox 8) and CFG-SIGNAL (u-blox 9) take effect on the sky, on the manual clock: a
/// system turned off leaves GSV, GSA, GGA's count and NAV-SAT from the next epoch, one turned on
/// comes in, the talker follows the systems tracked and MON-GNSS reports them; on the F9P each
/// signal enabled is a GSV group with its signal ID.
@Suite(.timeLimit(.minutes(5))) struct TrackedSystemsEffectTests {
  typealias Epoch = ConfiguredEpoch

  /// CFG-GNSS blocks: `gnssId`, reserved and maximum channels, and the enable flag with signal
  /// mask 1 (the u-blox 8 / M8 receiver description).
  static func gnss(_ blocks: [(UInt8, UInt8, UInt8, Bool)]) -> UBXFrame {
    let payload: [UInt8] =
      [0, 0, 0xFF, UInt8(blocks.count)]
      + blocks.flatMap { id, reserved, maximum, on in
        [id, reserved, maximum, 0, on ? 1 : 0, 0, 1, 1]
      }
    return UBXFrame(.cfgGNSS, payload: payload)
  }

  /// MON-GNSS's mask bits (GPS 1, GLONASS 2, BeiDou 4, Galileo 8).
  static let (gpsBit, glonassBit, beidouBit, galileoBit): (UInt8, UInt8, UInt8, UInt8) = (
    1, 2, 4, 8
  )

  @Test func theM8TracksTheSystemsCFGGNSSEnables() throws {
    let harness = try Epoch.harness(.ubloxM8)
    defer { harness.stop() }
    let factory = Epoch(try harness.step())
    #expect(factory.gsvTalkers == ["GP", "GL"])
    #expect(factory.rmcTalker == "GN")

    let gpsOnly = try Epoch(after: Self.gnss([(6, 8, 14, false)]), on: harness)
    #expect(gpsOnly.gsvTalkers == ["GP"])
    #expect(gpsOnly.rmcTalker == "GP")
    #expect(gpsOnly.satellitesUsed == gpsOnly.satellitesInGSA)
    #expect((gpsOnly.satellitesUsed ?? 0) < (factory.satellitesUsed ?? 0))
    let monitor = try Epoch(after: UBXFrame(.monGNSS), on: harness)
    #expect(monitor.monGNSSEnabled == Self.gpsBit)

    let withGalileo = try Epoch(after: Self.gnss([(2, 4, 8, true)]), on: harness)
    #expect(withGalileo.gsvTalkers == ["GP", "GA"])
    #expect(withGalileo.rmcTalker == "GN")
    #expect(withGalileo.gsvGroups["GA/7"] != nil)  // Galileo E1, as the profile's capture

    // With GLONASS a fourth major system would be on: more than the M8 tracks at once
    // (u-blox M8: up to 3 concurrent GNSS), so the message is NAK'd and nothing changes.
    let refused = try Epoch(after: Self.gnss([(3, 8, 16, true), (6, 8, 14, true)]), on: harness)
    #expect(refused.gsvTalkers == ["GP", "GA"])
    let unchanged = try Epoch(after: UBXFrame(.monGNSS), on: harness)
    #expect(unchanged.monGNSSEnabled == Self.gpsBit | Self.galileoBit)
  }

  @Test func theF9PTracksTheSystemsCFGSIGNALEnables() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let navSatUART1: UInt32 = 0x2091_0016
    let (galileo, beidou): (UInt32, UInt32) = (0x1031_0021, 0x1031_0022)
    let factory = try Epoch(after: Epoch.valueSet([(navSatUART1, 1)]), on: harness)
    #expect(factory.gsvTalkers == ["GP", "GL", "GA", "GB"])
    #expect(factory.navSatSystems == [0, 1, 2, 3, 6])  // SBAS (1) in view, tracked too

    let withoutBeiDou = try Epoch(after: Epoch.valueSet([(beidou, 0)]), on: harness)
    #expect(withoutBeiDou.gsvTalkers == ["GP", "GL", "GA"])
    #expect(withoutBeiDou.navSatSystems == [0, 1, 2, 6])
    #expect((withoutBeiDou.satellitesUsed ?? 0) < (factory.satellitesUsed ?? 0))

    let otherThree = try Epoch(
      after: Epoch.valueSet([(galileo, 0), (beidou, 1)]), on: harness)
    #expect(otherThree.gsvTalkers == ["GP", "GL", "GB"])
    #expect(otherThree.navSatSystems == [0, 1, 3, 6])
    let monitor = try Epoch(after: UBXFrame(.monGNSS), on: harness)
    #expect(monitor.monGNSSEnabled == Self.gpsBit | Self.glonassBit | Self.beidouBit)
  }

  /// The F9P takes the legacy CFG-GNSS as the chip translates it, into its CFG-SIGNAL keys:
  /// GLONASS off leaves the sky, Galileo with E1 only keeps one GSV group.
  @Test func theF9PTranslatesALegacyCFGGNSSIntoItsSignals() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let noGLONASS = try Epoch(after: Self.gnss([(6, 8, 14, false)]), on: harness)
    #expect(noGLONASS.gsvTalkers == ["GP", "GA", "GB"])
    let e1Only = try Epoch(after: Self.gnss([(2, 4, 8, true)]), on: harness)
    #expect(e1Only.gsvGroups["GA/7"] != nil)
    #expect(e1Only.gsvGroups["GA/2"] == nil)
    let backAgain = try Epoch(after: Self.gnss([(6, 8, 14, true)]), on: harness)
    #expect(backAgain.gsvTalkers == ["GP", "GL", "GA", "GB"])
  }

  /// A chip started on other systems (`--constellations`) keeps them when a client turns one
  /// system off: the others stay as they were, not as the factory had them.
  @Test(arguments: ["ublox-m8", "ublox-f9p"])
  func aChipStartedOnOtherSystemsKeepsThemAcrossAChange(_ name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    var configuration = EmulatorConfiguration(pacing: try BytePacing(baud: 115_200))
    configuration.profile = profile
    configuration.baudMismatch = .clean
    configuration.sky.constellations = [.gps, .galileo, .beidou]
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    #expect(Epoch(try harness.step()).gsvTalkers == ["GP", "GA", "GB"])
    let withoutBeiDou =
      profile == .ubloxM8
      ? Self.gnss([(3, 8, 16, false)]) : Epoch.valueSet([(0x1031_0022, 0)])
    let after = try Epoch(after: withoutBeiDou, on: harness)
    #expect(after.gsvTalkers == ["GP", "GA"])
  }

  @Test func theF9PWritesAGSVGroupPerSignalEnabled() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let factory = Epoch(try harness.step())
    #expect(Set(factory.gsvGroups.keys).isSuperset(of: ["GP/1", "GP/6", "GL/1", "GL/3"]))

    let (gpsL2C, gloL1, gloL2): (UInt32, UInt32, UInt32) = (0x1031_0003, 0x1031_0018, 0x1031_001A)
    let l1Only = try Epoch(after: Epoch.valueSet([(gpsL2C, 0)]), on: harness)
    #expect(l1Only.gsvGroups["GP/1"] != nil)
    #expect(l1Only.gsvGroups["GP/6"] == nil)
    #expect(l1Only.gsvGroups["GL/3"] != nil)

    // GLONASS off with its signals is not tracked (enabled with none, the chip refuses it:
    // `UbloxValueValidityTests`).
    let gloEnable: UInt32 = 0x1031_0025
    let noGLONASS = try Epoch(
      after: Epoch.valueSet([(gloEnable, 0), (gloL1, 0), (gloL2, 0)]), on: harness)
    #expect(noGLONASS.gsvTalkers == ["GP", "GA", "GB"])
    #expect(noGLONASS.satellitesUsed == noGLONASS.satellitesInGSA)
  }
}
