import Receiver
import Testing
import UBX

/// The NAV and MON polls of the u-blox profiles: which each chip answers, and with what.
@Suite struct UbloxPollTests {
  /// A NAV message and its payload length on the chips that have it (NAV-SAT and NAV-SVINFO
  /// for the six satellites of `UBXNavigationEncoderTests.sky`).
  struct NavigationCase: CustomTestStringConvertible, Sendable {
    let type: UBXMessageType
    let payloadLength: Int
    let onUblox9: Bool
    var testDescription: String { type.description }
  }

  static let navigationCases: [NavigationCase] = [
    .init(type: .navPVT, payloadLength: 92, onUblox9: true),
    .init(type: .navPOSECEF, payloadLength: 20, onUblox9: true),
    .init(type: .navPOSLLH, payloadLength: 28, onUblox9: true),
    .init(type: .navSTATUS, payloadLength: 16, onUblox9: true),
    .init(type: .navDOP, payloadLength: 18, onUblox9: true),
    .init(type: .navSOL, payloadLength: 52, onUblox9: false),
    .init(type: .navVELECEF, payloadLength: 20, onUblox9: true),
    .init(type: .navVELNED, payloadLength: 36, onUblox9: true),
    .init(type: .navTIMEGPS, payloadLength: 16, onUblox9: true),
    .init(type: .navTIMEUTC, payloadLength: 20, onUblox9: true),
    .init(type: .navCLOCK, payloadLength: 20, onUblox9: true),
    .init(type: .navSAT, payloadLength: 8 + 12 * 6, onUblox9: true),
    .init(type: .navSVINFO, payloadLength: 8 + 12 * 6, onUblox9: false),
    .init(type: .navEOE, payloadLength: 4, onUblox9: true),
  ]

  @Test(arguments: navigationCases)
  func aNavigationPollAsksForTheMessageOfTheLastEpoch(_ c: NavigationCase) throws {
    for (profile, has) in [(ReceiverProfile.ubloxM8, true), (.ubloxF9P, c.onUblox9)] {
      var handler = UbloxCommandHandler(profile: profile)
      #expect(
        handler.handle(.ubx(UBXFrame(c.type))) == (has ? [.replyFromEpoch(c.type)] : []),
        "\(profile.name)")
      // A payload is not a poll: the chip ignores it.
      #expect(handler.handle(.ubx(UBXFrame(c.type, payload: [0]))) == [])
      let frame = UBXNavigationEncoder(profile: profile).frame(
        c.type, for: UBXNavigationEncoderTests.fix(epoch: 0))
      #expect(frame?.messageType == (has ? c.type : nil), "\(profile.name)")
      if has { #expect(frame?.payload.count == c.payloadLength, "\(profile.name)") }
    }
  }

  @Test func eachEpochSendsTheNavigationMessagesSwitchedOnThatTheChipHas() throws {
    var handler = UbloxCommandHandler(profile: .ubloxM8)
    let enable = UBXFrame(.cfgMSG, payload: [0x01, 0x03, 1])
    #expect(handler.handle(.ubx(enable)).last == .setOutput(handler.output))
    let fix = UBXNavigationEncoderTests.fix(epoch: 0)
    let m8 = UBXNavigationEncoder(profile: .ubloxM8)
    #expect(
      m8.frames(for: fix, output: handler.output, epochIndex: 7).map(\.messageType) == [.navSTATUS])
    let f9 = UBXNavigationEncoder(profile: .ubloxF9P)
    #expect(
      f9.frames(for: fix, output: UBXNavigationEncoderTests.everyMessage, epochIndex: 0)
        .map(\.messageType)
        == UBXNavigationEncoder.messageOrder.filter { $0 != .navSOL && $0 != .navSVINFO })
  }

  /// A MON message and its payload length on each chip, nil where the chip lacks it.
  struct MonitorCase: CustomTestStringConvertible, Sendable {
    let type: UBXMessageType
    let m8Length: Int?
    let f9Length: Int?
    var testDescription: String { type.description }
  }

  static let monitorCases: [MonitorCase] = [
    .init(type: .monVER, m8Length: 40 + 4 * 30, f9Length: 40 + 6 * 30),
    .init(type: .monHW, m8Length: 60, f9Length: 60),
    .init(type: .monHW2, m8Length: 28, f9Length: 28),
    .init(type: .monRF, m8Length: nil, f9Length: 4 + 2 * 24),
    .init(type: .monGNSS, m8Length: 8, f9Length: 8),
    .init(type: .monCOMMS, m8Length: nil, f9Length: 8 + 5 * 40),
    .init(type: .monRXBUF, m8Length: 24, f9Length: 24),
    .init(type: .monTXBUF, m8Length: 28, f9Length: 28),
    .init(type: .monMSGPP, m8Length: 120, f9Length: 120),
  ]

  @Test(arguments: monitorCases)
  func aMonitorPollIsAnsweredWithTheChipsMessage(_ c: MonitorCase) throws {
    for (profile, length) in [(ReceiverProfile.ubloxM8, c.m8Length), (.ubloxF9P, c.f9Length)] {
      var handler = UbloxCommandHandler(profile: profile)
      let effects = handler.handle(.ubx(UBXFrame(c.type)))
      guard let length else {
        #expect(effects == [], "\(profile.name)")
        continue
      }
      guard case .reply(let bytes) = try #require(effects.first), effects.count == 1 else {
        Issue.record("\(profile.name): \(effects)")
        continue
      }
      let frame = try UBXFrame(parsing: bytes)
      #expect(frame.messageType == c.type)
      #expect(frame.payload.count == length, "\(profile.name)")
    }
  }

  /// Every answer of both chips, and every NAV message of an epoch, as pyubx2 reads them.
  static func decodedAnswers(_ profile: ReceiverProfile) throws -> [String: [String: Any]] {
    var handler = UbloxCommandHandler(profile: profile)
    _ = handler.handle(.nmea("$PUBX,00*33"))
    let replies = monitorCases.map(\.type).flatMap { type -> [UInt8] in
      handler.handle(.ubx(UBXFrame(type))).flatMap { effect -> [UInt8] in
        guard case .reply(let bytes) = effect else { return [] }
        return bytes
      }
    }
    let encoder = UBXNavigationEncoder(profile: profile)
    let fix = UBXNavigationEncoderTests.fix(epoch: 0)
    let navigation = encoder.navigationMessages.compactMap { encoder.frame($0, for: fix) }
    let decoded = try UBXNavigationEncoderTests.decode(
      replies + navigation.flatMap(\.bytes))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    return Dictionary(
      messages.map { ($0["identity"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
  }

  @Test func pyubx2ReadsTheM8AnswersAsAHealthyChipWithTheEpochsFix() throws {
    let messages = try Self.decodedAnswers(.ubloxM8)
    #expect(
      Set(messages.keys)
        == [
          "MON-VER", "MON-HW", "MON-HW2", "MON-GNSS", "MON-RXBUF", "MON-TXBUF", "MON-MSGPP",
          "NAV-PVT", "NAV-POSECEF", "NAV-POSLLH", "NAV-STATUS", "NAV-DOP", "NAV-SOL",
          "NAV-VELECEF", "NAV-VELNED", "NAV-TIMEGPS", "NAV-TIMEUTC", "NAV-CLOCK", "NAV-SAT",
          "NAV-SVINFO", "NAV-ORB", "NAV-EOE",
        ])
    let hardware = try #require(messages["MON-HW"])
    #expect(hardware["aStatus"] as? Int == 2)  // OK, as the banner's ANTSTATUS=OK
    #expect(hardware["aPower"] as? Int == 1)
    #expect(hardware["jammingState"] as? Int == 1)
    #expect((hardware["jamInd"] as? Int ?? 255) < 20)
    #expect(messages["MON-GNSS"]?["simultaneous"] as? Int == 3)
    #expect(messages["MON-GNSS"]?["GPSEna"] as? Int == 1)
    #expect(messages["MON-GNSS"]?["GalileoEna"] as? Int == 0)
    // The NMEA line written before the polls, and the nine polls up to MON-MSGPP's own.
    #expect(messages["MON-MSGPP"]?["msg2_02"] as? Int == 1)
    #expect(messages["MON-MSGPP"]?["msg2_01"] as? Int == 9)
    let pvt = try #require(messages["NAV-PVT"])
    let llh = try #require(messages["NAV-POSLLH"])
    #expect(llh["lat"] as? Double == pvt["lat"] as? Double)
    #expect(llh["hMSL"] as? Double == pvt["hMSL"] as? Double)
    #expect(messages["NAV-VELNED"]?["gSpeed"] as? Double == 15.4)
    #expect(messages["NAV-STATUS"]?["gpsFix"] as? Int == 3)
    #expect(messages["NAV-STATUS"]?["ttff"] as? Int == 26_000)
    #expect(messages["NAV-TIMEUTC"]?["year"] as? Int == 2026)
    #expect(messages["NAV-TIMEUTC"]?["sec"] as? Int == 54)
    #expect(messages["NAV-CLOCK"]?["clkD"] as? Int == 300)
  }

  @Test func pyubx2ReadsTheF9PAnswersWithTwoRFBlocksAndUART1sTraffic() throws {
    let messages = try Self.decodedAnswers(.ubloxF9P)
    #expect(messages["NAV-SOL"] == nil && messages["NAV-SVINFO"] == nil)
    // MON-HW2's low-level configuration from OTP ('o').
    #expect(messages["MON-HW2"]?["cfgSource"] as? Int == 111)
    let rf = try #require(messages["MON-RF"])
    #expect(rf["nBlocks"] as? Int == 2)
    #expect(rf["antStatus_01"] as? Int == 1)  // DONTKNOW, as the banner's ANTSTATUS
    #expect((rf["jamInd_01"] as? Int ?? 255) < 20)
    let comms = try #require(messages["MON-COMMS"])
    #expect(comms["nPorts"] as? Int == 5)
    // `$PUBX,00*33` and its CR LF, then six polls of 8 bytes up to MON-COMMS's own.
    #expect(comms["rxBytes_02"] as? Int == 13 + 6 * 8)
    #expect(comms["msgs_02_01"] as? Int == 6)
    #expect(messages["MON-GNSS"]?["simultaneous"] as? Int == 4)
    #expect(messages["NAV-STATUS"]?["ttff"] as? Int == 24_000)
  }

  @Test func theBannerAndMONVERNameTheSameFirmware() throws {
    for (profile, firmware, protocolVersion) in [
      (ReceiverProfile.ubloxM8, "FWVER=SPG 3.01", 18.0), (.ubloxF9P, "FWVER=HPG 1.32", 27.31),
    ] {
      var handler = UbloxCommandHandler(profile: profile)
      guard case .reply(let bytes) = handler.handle(.ubx(UBXFrame(.monVER))).first else {
        Issue.record("no MON-VER from \(profile.name)")
        continue
      }
      let version = try #require(UBXVersion(payload: try UBXFrame(parsing: bytes).payload))
      #expect(version.protocolVersion == protocolVersion)
      #expect(version.extensions.contains(firmware))
      let banner = profile.powerUpSentences.joined(separator: "\n")
      for text in version.extensions + [version.hardware] {
        #expect(banner.contains(text), "\(profile.name): \(text) not in the banner")
      }
      #expect(!banner.contains("PROTVER 15") && !banner.contains("HPG 1.1"))
    }
  }
}
