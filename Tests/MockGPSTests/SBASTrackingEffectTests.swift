import Foundation
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// The geostationary SBAS satellites in the sky follow the chip's SBAS setting, on the manual
/// clock at the default position (Greenwich): u-blox's CFG-SBAS (mode and scan mask), CFG-GNSS's
/// SBAS block and on the F9P `CFG-SIGNAL-SBAS_ENA` and `CFG-SBAS-PRNSCANMASK`; MediaTek's
/// `PMTK313`. They are listed (GSV under GP as PRN − 87, NAV-SAT as `gnssId` 1 with the PRN)
/// but never used: GSA and GGA's count leave them out.
@Suite(.timeLimit(.minutes(5))) struct SBASTrackingEffectTests {
  typealias Epoch = ConfiguredEpoch

  /// The SBAS satellites of the table at or above 5° from Greenwich (51.477928° N, 0.001545° W,
  /// 46 m): EGNOS 121, 123 and 136, SDCM 125, GAGAN 127, at 30.9°, 24.2°, 30.9°, 29.2° and 12.5°
  /// of elevation (`SBASSkyTests` has the independent look angles).
  static let greenwichPRNs: Set<Int> = [121, 123, 125, 127, 136]
  /// Their NMEA numbers, PRN − 87.
  static let greenwichNumbers: Set<Int> = [34, 36, 38, 40, 49]
  /// Of those, the ones the F9P's factory scan mask (CFG-SBAS-PRNSCANMASK 0x72B88: PRN 123, 127,
  /// 128, 129, 131, 133, 136, 137, 138) searches, and their NMEA numbers.
  static let greenwichF9PPRNs: Set<Int> = [123, 127, 136]
  static let greenwichF9PNumbers: Set<Int> = [36, 40, 49]

  /// CFG-MSG setting a UBX NAV message's rate on the current port (3-byte form).
  static func rate(_ id: UInt8, _ rate: UInt8 = 1) -> UBXFrame {
    UBXFrame(.cfgMSG, payload: [0x01, id, rate])
  }

  /// CFG-SBAS: `mode` (bit 0 enabled), usage range and corrections, 3 channels, and the scan
  /// mask (bit n: PRN 120 + n; 0: every PRN).
  static func sbas(mode: UInt8, scan: UInt64 = 0) -> UBXFrame {
    UBXFrame(
      .cfgSBAS,
      payload: [mode, 0x03, 3, UInt8(scan >> 32 & 0x7F)]
        + (0..<4).map { UInt8(truncatingIfNeeded: scan >> (8 * $0)) })
  }

  /// The SBAS numbers (33–64) in the GP GSV groups of an epoch.
  static func sbasInGSV(_ epoch: Epoch, group: String? = nil) -> Set<Int> {
    let groups = epoch.gsvNumbers.filter { key, _ in group.map { $0 == key } ?? key.hasPrefix("GP")
    }
    return groups.values.reduce(into: Set<Int>()) { $0.formUnion($1) }.filter((33...64).contains)
  }

  @Test func theM8ListsTheSBASSatellitesItSeesWithoutUsingThem() throws {
    let harness = try Epoch.harness(.ubloxM8)
    defer { harness.stop() }
    _ = try Epoch(after: Self.rate(0x35), on: harness)
    let epoch = try Epoch(after: Self.rate(0x30), on: harness)  // NAV-SVINFO too
    #expect(epoch.navSatNumbers(system: 1).numbers == Self.greenwichPRNs)
    #expect(epoch.navSatNumbers(system: 1).anyUsed == false)
    #expect(Self.sbasInGSV(epoch) == Self.greenwichNumbers)
    #expect(epoch.gsaNumbers.isDisjoint(with: 33...64))
    #expect(epoch.satellitesUsed == epoch.satellitesInGSA)
    #expect(epoch.satellitesUsed == epoch.navSatSatellites?.filter(\.isUsed).count)

    // pyubx2 reads NAV-SAT's and NAV-SVINFO's SBAS satellites the same way: PRN, tracked
    // (C/N0 above 0), not used, at the elevations the look angles give.
    let decoded = try PythonTool.json(
      "decode_ubx.py", input: Data(epoch.ubxFrames.flatMap(\.bytes)))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true)
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    let navSat = try #require(messages.first { $0["identity"] as? String == "NAV-SAT" })
    let sbas = (navSat["satellites"] as? [[String: Any]] ?? []).filter {
      $0["gnssId"] as? Int == 1
    }
    #expect(Set(sbas.compactMap { $0["svId"] as? Int }) == Self.greenwichPRNs)
    #expect(sbas.allSatisfy { ($0["cno"] as? Int ?? 0) > 0 && $0["used"] as? Int == 0 })
    let egnos136 = try #require(sbas.first { $0["svId"] as? Int == 136 })
    #expect(abs((egnos136["elev"] as? Int ?? 0) - 31) <= 1)
    let svInfo = try #require(messages.first { $0["identity"] as? String == "NAV-SVINFO" })
    let svInfoSBAS = (svInfo["satellites"] as? [[String: Any]] ?? []).filter {
      (120...158).contains($0["svid"] as? Int ?? 0)
    }
    #expect(Set(svInfoSBAS.compactMap { $0["svid"] as? Int }) == Self.greenwichPRNs)
    #expect(svInfoSBAS.allSatisfy { $0["used"] as? Int == 0 })
  }

  @Test func cfgSBASTurnsThemOffAndItsScanMaskKeepsOnlyItsPRNs() throws {
    let harness = try Epoch.harness(.ubloxM8)
    defer { harness.stop() }
    let factory = try Epoch(after: Self.rate(0x35), on: harness)
    #expect(factory.navSatNumbers(system: 1).numbers == Self.greenwichPRNs)

    let disabled = try Epoch(after: Self.sbas(mode: 0), on: harness)
    #expect(disabled.navSatSystems?.contains(1) == false)
    #expect(Self.sbasInGSV(disabled).isEmpty)
    #expect(disabled.satellitesUsed == disabled.satellitesInGSA)

    // scanmode1 bit 3: PRN 123 alone (EGNOS, Astra 5B), NMEA 36.
    let onlyOne = try Epoch(after: Self.sbas(mode: 1, scan: 1 << 3), on: harness)
    #expect(onlyOne.navSatNumbers(system: 1).numbers == [123])
    #expect(Self.sbasInGSV(onlyOne) == [36])

    // A mask without a PRN in view: none; then every PRN again (auto-scan).
    let waasOnly = try Epoch(after: Self.sbas(mode: 1, scan: 1 << 11 | 1 << 13), on: harness)
    #expect(waasOnly.navSatSystems?.contains(1) == false)
    let autoScan = try Epoch(after: Self.sbas(mode: 1), on: harness)
    #expect(autoScan.navSatNumbers(system: 1).numbers == Self.greenwichPRNs)

    // CFG-GNSS's SBAS block turned off: none, whatever CFG-SBAS says.
    let noBlock = try Epoch(
      after: TrackedSystemsEffectTests.gnss([(1, 1, 3, false)]), on: harness)
    #expect(noBlock.navSatSystems?.contains(1) == false)
    #expect(noBlock.gsvTalkers == ["GP", "GL"])
  }

  @Test func theF9PFollowsCFGSIGNALSBASENAAndThePRNScanMask() throws {
    let harness = try Epoch.harness(.ubloxF9P)
    defer { harness.stop() }
    let navSatUART1: UInt32 = 0x2091_0016
    let sbasEnable: UInt32 = 0x1031_0020
    let navSigUART1: UInt32 = 0x2091_0346
    // One epoch first: the VALSET sent before the first epoch was answered in a step that
    // carried no epoch once NAV-SIG was in it (seen on the manual clock, not investigated).
    _ = try harness.step()
    let factory = try Epoch(
      after: Epoch.valueSet([(navSatUART1, 1), (navSigUART1, 1)]), on: harness)
    #expect(factory.navSatNumbers(system: 1).numbers == Self.greenwichF9PPRNs)
    #expect(factory.navSatNumbers(system: 1).anyUsed == false)
    // SBAS sends L1 C/A only: listed in GPS's L1 group, not in its L2C one, and in NAV-SIG
    // (read by pyubx2) with one signal each, L1C/A (sigId 0), its pseudorange not used.
    #expect(Self.sbasInGSV(factory, group: "GP/1") == Self.greenwichF9PNumbers)
    #expect(Self.sbasInGSV(factory, group: "GP/6").isEmpty)
    let decoded = try PythonTool.json(
      "decode_ubx.py", input: Data(factory.ubxFrames.flatMap(\.bytes)))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true)
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    let navSig = try #require(messages.first { $0["identity"] as? String == "NAV-SIG" })
    let sbasSignals = (navSig["signals"] as? [[String: Any]] ?? []).filter {
      $0["gnssId"] as? Int == 1
    }
    #expect(
      sbasSignals.compactMap { $0["svId"] as? Int }.sorted() == Self.greenwichF9PPRNs.sorted())
    #expect(sbasSignals.allSatisfy { $0["sigId"] as? Int == 0 && $0["prUsed"] as? Int == 0 })

    let off = try Epoch(after: Epoch.valueSet([(sbasEnable, 0)]), on: harness)
    #expect(off.navSatSystems == [0, 2, 3, 6])
    #expect(Self.sbasInGSV(off).isEmpty)

    // CFG-SBAS-PRNSCANMASK (X8) with PRN 136's bit alone, SBAS back on.
    let scanMask: UInt32 = 0x5036_0006
    let mask: UInt64 = 1 << 16
    let maskPayload: [UInt8] =
      [0, 1, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: scanMask >> (8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: mask >> (8 * $0)) }
    _ = try Epoch(after: UBXFrame(.cfgVALSET, payload: maskPayload), on: harness)
    let only136 = try Epoch(after: Epoch.valueSet([(sbasEnable, 1)]), on: harness)
    #expect(only136.navSatNumbers(system: 1).numbers == [136])
    #expect(Self.sbasInGSV(only136) == [49])
  }

  /// MediaTek: SBAS off from the factory (`MTKSettings`), `PMTK313,1` brings the satellites into
  /// GPGSV (every fifth epoch), `PMTK313,0` takes them out; GSA never lists them.
  @Test func theMediaTekFollowsPMTK313() throws {
    let harness = try Epoch.harness(.mtk)
    defer { harness.stop() }
    func fiveEpochs() throws -> [Epoch] { try (0..<5).map { _ in Epoch(try harness.step()) } }
    func sbas(_ epochs: [Epoch]) -> Set<Int> {
      epochs.reduce(into: Set<Int>()) { $0.formUnion(Self.sbasInGSV($1)) }
    }
    let factory = try fiveEpochs()
    #expect(factory.contains { !$0.gsvNumbers.isEmpty })
    #expect(sbas(factory).isEmpty)

    try harness.send(PMTKCommand(number: 313, fields: ["1"]).text + "\r\n", expectingReplies: 1)
    let on = try fiveEpochs()
    #expect(sbas(on) == Self.greenwichNumbers)
    #expect(on.allSatisfy { $0.gsaNumbers.isDisjoint(with: 33...64) })

    try harness.send(PMTKCommand(number: 313, fields: ["0"]).text + "\r\n", expectingReplies: 1)
    #expect(sbas(try fiveEpochs()).isEmpty)
  }
}
