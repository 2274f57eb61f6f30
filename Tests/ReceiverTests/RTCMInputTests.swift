import RTCM
import TestFixtures
import Testing
import UBX

@testable import Receiver

/// RTCM 3 written to the device: framed among NMEA and UBX by the input demultiplexer, bad
/// CRCs reported and counted, and each message answered by RXM-RTCM on the F9P when that
/// output is on (pyubx2 decodes it). pyubx2 runs as a process, hence `.blocking`.
@Suite(.blocking) struct RTCMInputTests {
  /// Message 1005 of station 2003, the example of RTCM 10403.3.
  static let station: [UInt8] = [
    0xD3, 0x00, 0x13, 0x3E, 0xD7, 0xD3, 0x02, 0x02, 0x98, 0x0E, 0xDE, 0xEF, 0x34, 0xB4, 0xBD,
    0x62, 0xAC, 0x09, 0x41, 0x98, 0x6F, 0x33, 0x36, 0x0B, 0x98,
  ]
  /// The empty 1230 of station 5, then the same with its CRC's last byte off by one (no byte
  /// of either starts a frame or a line).
  static let biases = RTCMFrame(payload: (try? GLONASSBiases(stationID: 5).payload()) ?? []).bytes
  static let badBiases = biases.dropLast() + [biases[biases.count - 1] ^ 0x01]
  static let line = "$PUBX,00*33"
  static let stream =
    Array("\(line)\r\n".utf8) + station + InputDemultiplexerTests.monVERPoll + badBiases
    + Array("\(line)\r\n".utf8) + biases

  static let expected: [ClientMessage] = [
    .nmea(line), .rtcm(.frame(RTCMFrame(payload: Array(station[3..<22])))),
    .ubx(UBXFrame(.monVER)), .rtcm(.checksumFailed(messageNumber: 1230)), .nmea(line),
    .rtcm(.frame(RTCMFrame(payload: Array(biases[3..<7])))),
  ]

  @Test func rtcmFramesComeOutInOrderWholeOrByteByByte() {
    var whole = InputDemultiplexer()
    #expect(whole.append(Self.stream) == Self.expected)
    var single = InputDemultiplexer()
    #expect(Self.stream.flatMap { single.append([$0]) } == Self.expected)
    for demultiplexer in [whole, single] {
      #expect(demultiplexer.rtcmChecksumFailureCount == 1)
      // The failed frame's preamble; its other bytes hold no frame and no line, and are
      // dropped by the NMEA framer as a line never started.
      #expect(demultiplexer.discardedByteCount == Self.badBiases.count)
    }
  }

  static func replies(enabled: Bool) -> [UInt8] {
    var handler = UbloxCommandHandler(profile: .ubloxF9P)
    if enabled {
      _ = handler.handle(
        .ubx(UbloxConfigurationFrames.valset([("CFG-MSGOUT-UBX_RXM_RTCM_UART1", 1)])))
    }
    var demultiplexer = InputDemultiplexer()
    return demultiplexer.append(Self.stream).flatMap { message -> [UInt8] in
      guard case .rtcm = message else { return [] }
      return handler.handle(message).flatMap { effect -> [UInt8] in
        if case .reply(let bytes) = effect { return bytes }
        return []
      }
    }
  }

  @Test func rxmRTCMReportsEachMessageOnceEnabled() throws {
    #expect(Self.replies(enabled: false).isEmpty)
    let decoded = try UBXNavigationEncoderTests.decode(Self.replies(enabled: true))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    #expect(messages.map { $0["identity"] as? String } == Array(repeating: "RXM-RTCM", count: 3))
    #expect(messages.map { $0["msgType"] as? Int } == [1005, 1230, 1230])
    #expect(messages.map { $0["refStation"] as? Int } == [2003, 0, 5])
    #expect(messages.map { $0["crcFailed"] as? Int } == [0, 1, 0])
    #expect(messages.map { $0["msgUsed"] as? Int } == [2, 0, 2])
  }

  @Test func theF9PUsesStationMSMAndBiasMessagesOnly() {
    for number in [1005, 1006, 1074, 1077, 1084, 1087, 1094, 1127, 1230, 4072] {
      #expect(UbloxCommandHandler.rtcmMessageIsUsed(number), "\(number)")
    }
    for number in [1004, 1019, 1033, 1071, 1078, 1230 + 1] {
      #expect(!UbloxCommandHandler.rtcmMessageIsUsed(number), "\(number)")
    }
  }
}
