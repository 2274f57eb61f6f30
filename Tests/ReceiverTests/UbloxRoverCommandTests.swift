import RTCM
import Simulation
import Testing
import UBX

@testable import Receiver

/// What the u-blox handlers make of corrections and of the rover's configuration items: an F9P
/// hands each usable RTCM message to its rover and a change of CFG-NAVSPG-CONSTR_DGNSSTO or
/// CFG-NAVHPG-DGNSSMODE (by key, or by the legacy CFG-NAV5 and CFG-DGNSS) to the emulator; an
/// M8 has no rover.
@Suite struct UbloxRoverCommandTests {
  static let biases = RTCMFrame(payload: (try? GLONASSBiases(stationID: 5).payload()) ?? [])
  static let ephemeris = RTCMFrame(payload: [0x3F, 0xB0] + Array(repeating: 0, count: 60))

  @Test func theF9PHandsUsableMessagesToItsRoverAndTheM8DoesNot() {
    var f9p = UbloxCommandHandler(profile: .ubloxF9P)
    #expect(
      f9p.handle(.rtcm(.frame(Self.biases))) == [.useCorrections(.glonassBiases(stationID: 5))])
    // 1019 (an ephemeris) and a frame with a bad CRC give the rover nothing.
    #expect(f9p.handle(.rtcm(.frame(Self.ephemeris))).isEmpty)
    #expect(f9p.handle(.rtcm(.checksumFailed(messageNumber: 1230))).isEmpty)
    var m8 = UbloxCommandHandler(profile: .ubloxM8)
    #expect(m8.handle(.rtcm(.frame(Self.biases))).isEmpty)
  }

  @Test func theRoverSettingsFollowTheirKeysAndTheLegacyMessages() {
    var f9p = UbloxCommandHandler(profile: .ubloxF9P)
    #expect(f9p.powerUpEffects.contains(.setRover(RTKSettings())))
    let timeout = f9p.handle(
      .ubx(UbloxConfigurationFrames.valset([("CFG-NAVSPG-CONSTR_DGNSSTO", 20)])))
    #expect(timeout.last == .setRover(RTKSettings(correctionTimeoutSeconds: 20)))
    let floatOnly = f9p.handle(.ubx(UbloxConfigurationFrames.valset([("CFG-NAVHPG-DGNSSMODE", 2)])))
    #expect(
      floatOnly.last
        == .setRover(RTKSettings(correctionTimeoutSeconds: 20, fixesAmbiguities: false)))
    // The same value again changes nothing.
    let again = f9p.handle(.ubx(UbloxConfigurationFrames.valset([("CFG-NAVHPG-DGNSSMODE", 2)])))
    #expect(!again.contains { if case .setRover = $0 { true } else { false } })
    // Legacy CFG-DGNSS (dgnssMode 3, RTK fixed): the chip translates it to the key.
    let legacy = f9p.handle(.ubx(UBXFrame(.cfgDGNSS, payload: [3, 0, 0, 0])))
    #expect(legacy.last == .setRover(RTKSettings(correctionTimeoutSeconds: 20)))
    let m8 = UbloxCommandHandler(profile: .ubloxM8)
    #expect(!m8.powerUpEffects.contains { if case .setRover = $0 { true } else { false } })
  }
}
