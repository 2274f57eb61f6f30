import Receiver
import Testing

@testable import UBX

/// NAV-SIG, NAV-ORB, NAV-RELPOSNED and MON-COMMS as periodic output: CFG-MSGOUT (F9P) or
/// CFG-MSG (M8) switches them on, and each due epoch carries them in the interface
/// description's layout, as pyubx2 reads it.
@Suite struct UbloxPeriodicSignalTests {
  /// The messages pyubx2 decoded from `frames`, by name; no decoding error allowed.
  static func decoded(_ frames: [UBXFrame]) throws -> [String: [String: Any]] {
    let decoded = try UBXNavigationEncoderTests.decode(frames.flatMap(\.bytes))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    return Dictionary(
      messages.map { ($0["identity"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// The UART1 rates of NAV-SIG, NAV-ORB and NAV-RELPOSNED at every epoch, MON-COMMS every
  /// second one.
  static let f9pKeys = [
    ("CFG-MSGOUT-UBX_NAV_SIG_UART1", UInt64(1)), ("CFG-MSGOUT-UBX_NAV_ORB_UART1", 1),
    ("CFG-MSGOUT-UBX_NAV_RELPOSNED_UART1", 1), ("CFG-MSGOUT-UBX_MON_COMMS_UART1", 2),
  ]

  @Test func f9pSendsNAVSIGORBRELPOSNEDAndMONCOMMSWhereCFGMSGOUTSwitchesThemOn() throws {
    let (handler, frames) = UbloxPeriodicMonitorTests.epochFrames(
      .ubloxF9P, after: [UbloxConfigurationFrames.valset(Self.f9pKeys)])
    #expect(handler.output.ubx[.navSIG] == 1 && handler.output.ubx[.monCOMMS] == 2)
    let types = frames.map(\.messageType)
    #expect(types == [.navRELPOSNED, .navSIG, .navORB, .monCOMMS])
    let byName = try Self.decoded(frames)
    // Two signals per system of the F9P's four; the untracked GPS 30 too, at quality 1.
    let signals = try #require(byName["NAV-SIG"]?["signals"] as? [[String: Any]])
    let sky = UBXNavigationEncoderTests.sky
    #expect(signals.count == 2 * sky.count)
    let expected: [(gnss: Int, sv: Int, sig: Int, freq: Int)] = [
      (0, 3, 0, 0), (0, 3, 3, 0), (0, 17, 0, 0), (0, 17, 3, 0), (6, 9, 0, 5), (6, 9, 2, 5),
      (2, 26, 0, 0), (2, 26, 6, 0), (3, 23, 0, 0), (3, 23, 2, 0), (0, 30, 0, 0), (0, 30, 3, 0),
    ]
    for (signal, want) in zip(signals, expected) {
      #expect(signal["gnssId"] as? Int == want.gnss)
      #expect(signal["svId"] as? Int == want.sv)
      #expect(signal["sigId"] as? Int == want.sig)
      #expect(signal["freqId"] as? Int == want.freq)
    }
    #expect(signals[0]["cno"] as? Int == 47 && signals[0]["qualityInd"] as? Int == 7)
    #expect(signals[0]["prUsed"] as? Int == 1 && signals[0]["ionoModel"] as? Int == 8)
    #expect(signals[11]["qualityInd"] as? Int == 1 && signals[11]["prUsed"] as? Int == 0)
    let orbits = try #require(byName["NAV-ORB"]?["satellites"] as? [[String: Any]])
    #expect(orbits.count == sky.count)
    #expect(orbits[0]["ephSource"] as? Int == 1 && (orbits[0]["ephUsability"] as? Int ?? 0) > 0)
    #expect(orbits[0]["visibility"] as? Int == 3 && orbits[0]["almUsability"] as? Int == 31)
    // GPS 30, in view but not tracked: no ephemeris, below the 5° mask.
    #expect(orbits[5]["ephSource"] as? Int == 0 && orbits[5]["visibility"] as? Int == 2)
    let relative = try #require(byName["NAV-RELPOSNED"])
    #expect(relative["version"] as? Int == 1 && relative["gnssFixOK"] as? Int == 1)
    #expect(relative["relPosValid"] as? Int == 0 && relative["carrSoln"] as? Int == 0)
    #expect(byName["MON-COMMS"]?["nPorts"] as? Int == 5)
  }

  @Test func theSignalsFollowTheDialectTheConfigurationSets() throws {
    var encoder = ReceiverEncoder(profile: .ubloxF9P)
    encoder.output = OutputSelection(nmea: [:], ubx: [.navSIG: 1])
    var dialect = ReceiverProfile.ubloxF9P.dialect
    dialect.signalIDs = [.gps: [1], .glonass: [1, 3]]
    encoder.write(dialect: dialect)
    let frames = encoder.frames(for: UBXNavigationEncoderTests.fix(epoch: 0), epochIndex: 0)
    let signals = try #require(try Self.decoded(frames)["NAV-SIG"]?["signals"] as? [[String: Any]])
    // GPS on L1 C/A only, GLONASS on both; Galileo and BeiDou not listed: their first signal.
    #expect(signals.map { $0["sigId"] as? Int } == [0, 0, 0, 2, 0, 0, 0])
  }

  @Test func monCOMMSGoesOutWithTheTrafficThePollReports() throws {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    _ = handler.handle(.ubx(UbloxConfigurationFrames.valset(Self.f9pKeys)))
    _ = handler.handle(.nmea("PUBX,00"))
    // The poll counts itself, answers, and hands the traffic it reports to the encoder.
    let polled = handler.handle(.ubx(UBXFrame(.monCOMMS)))
    guard case .setPortTraffic(let traffic) = try #require(polled.last) else {
      Issue.record("no traffic for MON-COMMS: \(polled)")
      return
    }
    var encoder = UBXNavigationEncoder(profile: .ubloxF9P)
    encoder.portTraffic = traffic
    let sent = encoder.frames(
      for: UBXNavigationEncoderTests.fix(epoch: 0),
      output: OutputSelection(nmea: [:], ubx: [.monCOMMS: 1]), epochIndex: 0)
    #expect(polled.first == .reply(try #require(sent.first).bytes))
    #expect(try Self.decoded(sent)["MON-COMMS"]?["rxBytes_02"] as? Int ?? 0 > 0)
    // Without MON-COMMS switched on, no traffic is handed over.
    var quiet = UbloxCommandHandler(profile: .ubloxF9P)
    #expect(quiet.handle(.nmea("PUBX,00")) == [])
  }

  @Test func m8SendsNAVORBAndRefusesNAVSIGAndRELPOSNED() throws {
    // CFG-MSG at rate 1 for NAV-ORB, NAV-SIG and NAV-RELPOSNED: all three in the M8's list.
    let enable = [UInt8(0x34), 0x43, 0x3C].map { UBXFrame(.cfgMSG, payload: [0x01, $0, 1]) }
    let (_, frames) = UbloxPeriodicMonitorTests.epochFrames(.ubloxM8, after: enable)
    #expect(frames.map(\.messageType) == [.navORB])
    #expect(try Self.decoded(frames)["NAV-ORB"] != nil)
    var m8 = UbloxCommandHandler(profile: .ubloxM8)
    #expect(m8.handle(.ubx(UBXFrame(.navORB))) == [.replyFromEpoch(.navORB)])
    #expect(m8.handle(.ubx(UBXFrame(.navSIG))) == [])
    // Its CFG-MSG refuses the u-blox 9 messages, as a message it does not have.
    #expect(m8.handle(.ubx(enable[0])).first == UbloxCommandHandlerTests.ack(.cfgMSG))
    for (messageClass, id) in [
      (UInt8(0x01), UInt8(0x43)), (0x01, 0x3C), (0x01, 0x14), (0x0A, 0x36),
    ] {
      let frame = UBXFrame(.cfgMSG, payload: [messageClass, id, 1])
      #expect(m8.handle(.ubx(frame)) == [UbloxCommandHandlerTests.nak(.cfgMSG)], "\(id)")
    }
  }
}
