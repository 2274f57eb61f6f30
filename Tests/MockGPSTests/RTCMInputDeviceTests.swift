import MockGPS
import MockGPSTestSupport
import RTCM
import Receiver
import TestFixtures
import Testing
import UBX

/// RTCM 3 written into an F9P's device on the manual clock, as an NTRIP client or str2str
/// writes corrections: each message answered by RXM-RTCM once enabled, a frame whose CRC
/// fails reported as failed and counted.
@Suite(.blocking, .timeLimit(.minutes(10))) struct RTCMInputDeviceTests {
  /// The empty 1230 of station 5, and the same with its CRC's last byte wrong.
  static let biases = RTCMFrame(payload: (try? GLONASSBiases(stationID: 5).payload()) ?? []).bytes
  static let badBiases = biases.dropLast() + [biases[biases.count - 1] ^ 0x01]

  @Test func eachMessageIsReportedByRXMRTCMAndBadOnesCounted() throws {
    let harness = try EmulatorHarness(configuration: EmulatorConfiguration(profile: .ubloxF9P))
    defer { harness.stop() }
    _ = try harness.step()
    // CFG-MSG: RXM-RTCM (02 32) once an epoch on this port.
    let enable = UBXFrame(.cfgMSG, payload: [0x02, 0x32, 1])
    try harness.send(bytes: enable.bytes, expectingReplies: 1)
    _ = try harness.step()
    try harness.send(bytes: Self.biases + Self.badBiases, commands: 2, expectingReplies: 2)
    #expect(harness.emulator.statistics.rtcmChecksumErrors == 1)
    let bytes = try harness.step()
    let reports = [
      UBXRTCMInputStatus.frame(
        messageType: 1230, referenceStation: 5, checksumFailed: false, use: .used),
      UBXRTCMInputStatus.frame(
        messageType: 1230, referenceStation: 0, checksumFailed: true, use: .unknown),
    ].flatMap(\.bytes)
    #expect(bytes.starts(with: reports), "the reports come before the epoch")
  }
}
