import Receiver
import Testing

@testable import UBX

/// The MON messages and NAV-HPPOSLLH a client switches on for periodic output (CFG-MSG on the
/// M8, CFG-MSGOUT on the F9P): they go out each due epoch, built as the polls build them.
@Suite struct UbloxPeriodicMonitorTests {
  /// The frames of epoch `epochIndex` after `commands`, as the encoder sends them.
  static func epochFrames(
    _ profile: ReceiverProfile, after commands: [UBXFrame], epochIndex: Int = 0
  ) -> (handler: UbloxCommandHandler, frames: [UBXFrame]) {
    var handler = UbloxCommandHandler(profile: profile)
    for command in commands { _ = handler.handle(.ubx(command)) }
    let frames = UBXNavigationEncoder(profile: profile).frames(
      for: UBXNavigationEncoderTests.fix(epoch: 0), output: handler.output,
      epochIndex: epochIndex)
    return (handler, frames)
  }

  @Test func m8SendsMONHWAndHW2AtTheRatesCFGMSGSets() throws {
    let (handler, frames) = Self.epochFrames(
      .ubloxM8,
      after: [
        UBXFrame(.cfgMSG, payload: [0x01, 0x07, 1]), UBXFrame(.cfgMSG, payload: [0x0A, 0x09, 1]),
        UBXFrame(.cfgMSG, payload: [0x0A, 0x0B, 2]),
      ])
    let types = frames.map(\.messageType)
    #expect(types.suffix(2) == [.monHW, .monHW2])
    #expect(types.first == .navPVT)
    // The same bytes a poll answers with.
    var polled = handler
    for frame in frames.suffix(2) {
      #expect(polled.handle(.ubx(UBXFrame(frame.messageType))) == [.reply(frame.bytes)])
    }
    // MON-HW2 at rate 2 is not due in epoch 1; MON-HW is.
    let odd = Self.epochFrames(
      .ubloxM8,
      after: [
        UBXFrame(.cfgMSG, payload: [0x0A, 0x09, 1]), UBXFrame(.cfgMSG, payload: [0x0A, 0x0B, 2]),
      ], epochIndex: 1
    ).frames.map(\.messageType)
    #expect(odd.contains(.monHW) && !odd.contains(.monHW2))
  }

  @Test func f9pSendsMONRFAndHPPOSLLHWhereCFGMSGOUTSwitchesThemOn() throws {
    let valset = UbloxConfigurationFrames.valset([
      ("CFG-MSGOUT-UBX_MON_RF_UART1", 1), ("CFG-MSGOUT-UBX_MON_HW_UART1", 1),
      ("CFG-MSGOUT-UBX_NAV_HPPOSLLH_UART1", 1), ("CFG-MSGOUT-UBX_NAV_PVT_UART1", 1),
    ])
    let (handler, frames) = Self.epochFrames(.ubloxF9P, after: [valset])
    #expect(handler.output.ubx[.monRF] == 1 && handler.output.ubx[.navHPPOSLLH] == 1)
    let types = frames.map(\.messageType)
    #expect(types.contains(.navHPPOSLLH))
    #expect(types.suffix(2) == [.monHW, .monRF])
    let decoded = try UBXNavigationEncoderTests.decode(frames.flatMap(\.bytes))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    let byName = Dictionary(
      messages.map { ($0["identity"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    #expect(byName["MON-RF"]?["nBlocks"] as? Int == 2)
    let pvt = try #require(byName["NAV-PVT"])
    let precise = try #require(byName["NAV-HPPOSLLH"])
    #expect(precise["invalidLlh"] as? Int == 0)
    for (field, pvtField) in [("lat", "lat"), ("lon", "lon")] {
      let fine = try #require(precise[field] as? Double)
      let coarse = try #require(pvt[pvtField] as? Double)
      #expect(abs(fine - coarse) <= 0.6e-7, "\(field)")
    }
    #expect((precise["hAcc"] as? Double ?? 0) > 0)
  }

  @Test func hpposllhIsAnF9PMessage() throws {
    var f9 = UbloxCommandHandler(profile: .ubloxF9P)
    #expect(f9.handle(.ubx(UBXFrame(.navHPPOSLLH))) == [.replyFromEpoch(.navHPPOSLLH)])
    var m8 = UbloxCommandHandler(profile: .ubloxM8)
    #expect(m8.handle(.ubx(UBXFrame(.navHPPOSLLH))) == [])
    let fix = UBXNavigationEncoderTests.fix(epoch: 0)
    #expect(UBXNavigationEncoder(profile: .ubloxM8).frame(.navHPPOSLLH, for: fix) == nil)
    let frame = try #require(UBXNavigationEncoder(profile: .ubloxF9P).frame(.navHPPOSLLH, for: fix))
    #expect(frame.payload.count == 36)
  }

  /// The residues take the position below the coarse fields' resolution, within ±99 units.
  @Test(arguments: [
    (48.858_370_123_4, Int32(488_583_701), Int8(23)), (-122.419_415_57, -1_224_194_156, 30),
    (0.000_000_004_9, 0, 5),
  ])
  func aPreciseValueSplitsIntoItsFields(_ value: Double, _ coarse: Int32, _ fine: Int8) {
    let split = UBXNavigationSolution.split(value, coarse: 1e7, fine: 1e9)
    #expect(split.coarse == coarse)
    #expect(split.fine == fine)
  }
}
