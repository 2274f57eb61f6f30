import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import RTCM
import Receiver
import TestFixtures
import Testing
import UBX

/// An F9P on the manual clock configured as a reference station by a client, as a base's setup
/// script does it (CFG-VALSET of CFG-TMODE-*, CFG-MSGOUT-UBX_NAV_SVIN and the RTCM outputs):
/// NAV-SVIN follows the survey-in until it is valid, RTCM 1005 starts then and carries the
/// survey's mean, and MSM7 and 1230 go out from the start; pyubx2 and pyrtcm decode every frame.
/// Python runs as a process, hence `.blocking`.
@Suite(.blocking, .timeLimit(.minutes(10))) struct BaseStationDeviceTests {
  /// CFG-VALSET (RAM): survey-in of at least 8 s to 2.5 m (the one-sigma of one fix, so the
  /// duration decides), station 21, NAV-SVIN, RTCM 1005, 1077 and 1230 once an epoch.
  static let setup: UBXFrame = {
    let items: [(UInt32, UInt64)] = [
      (0x2003_0001, 1), (0x4003_0010, 8), (0x4003_0011, 25_000), (0x3009_0001, 21),
      (0x2091_0089, 1), (0x2091_02BE, 1), (0x2091_02CD, 1), (0x2091_0304, 1),
    ]
    return UBXValueSet.frame(
      items.map { UBXConfigurationItem(key: UBXConfigurationKey($0.0), value: $0.1) })
  }()

  /// The epochs' UBX frames and RTCM frames, each as one stream.
  static func split(_ bytes: [UInt8]) -> (ubx: [UInt8], rtcm: [UInt8]) {
    var demultiplexer = InputDemultiplexer()
    var ubx: [UInt8] = []
    var rtcm: [UInt8] = []
    for message in demultiplexer.append(bytes) {
      switch message {
      case .ubx(let frame): ubx += frame.bytes
      case .rtcm(.frame(let frame)): rtcm += frame.bytes
      default: break
      }
    }
    return (ubx, rtcm)
  }

  @Test func aSurveyInEndsInTimeModeAndTheStationSendsItsMean() throws {
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        pacing: try BytePacing(baud: 115_200), profile: .ubloxF9P))
    defer { harness.stop() }
    _ = try harness.step()
    try harness.send(bytes: Self.setup.bytes, expectingReplies: 1)
    var epochs: [(ubx: [UInt8], rtcm: [UInt8])] = []
    for _ in 0..<12 { epochs.append(Self.split(try harness.step())) }
    let ubx = try PythonTool.json("decode_ubx.py", input: Data(epochs.flatMap(\.ubx)))
    #expect((ubx["errors"] as? [Any])?.isEmpty == true, "\(ubx["errors"] ?? "")")
    let surveys = try #require(ubx["messages"] as? [[String: Any]]).filter {
      $0["identity"] as? String == "NAV-SVIN"
    }
    try #require(surveys.count == 12)
    let durations = surveys.map { $0["dur"] as? Int ?? -1 }
    let valid = surveys.map { $0["valid"] as? Int ?? -1 }
    let active = surveys.map { $0["active"] as? Int ?? -1 }
    // The survey began a fraction of a second before the first epoch after the VALSET.
    #expect(durations == Array(0...8) + [8, 8, 8], "\(durations)")
    #expect(valid == Array(repeating: 0, count: 8) + Array(repeating: 1, count: 4))
    #expect(active == valid.map { 1 - $0 })
    let accuracies = surveys.map { $0["meanAcc"] as? Int ?? 0 }
    #expect(zip(accuracies, accuracies.dropFirst()).allSatisfy { $0 >= $1 }, "\(accuracies)")
    // RTCM: 1077 and 1230 in every epoch; 1005 once the survey is valid, at its mean.
    for (index, epoch) in epochs.enumerated() {
      let rtcm = try PythonTool.json("decode_rtcm.py", input: Data(epoch.rtcm))
      #expect((rtcm["errors"] as? [Any])?.isEmpty == true, "\(rtcm["errors"] ?? "")")
      let messages = try #require(rtcm["messages"] as? [[String: Any]])
      let identities = messages.map { $0["identity"] as? String ?? "" }
      let expected = (valid[index] == 1 ? ["1005"] : []) + ["1077", "1230"]
      #expect(identities == expected, "epoch \(index): \(identities)")
      #expect(messages.allSatisfy { $0["DF003"] as? Int == 21 }, "station IDs")
      let msm = try #require(messages.first { $0["identity"] as? String == "1077" })
      let satellites = (msm["msm"] as? [String: Any])?["satellites"] as? [Any] ?? []
      #expect(satellites.count >= 4, "epoch \(index): \(satellites.count) satellites")
      if let station = messages.first(where: { $0["identity"] as? String == "1005" }) {
        let survey = surveys[index]
        let mean = ["X", "Y", "Z"].map { axis in
          Double(survey["mean\(axis)"] as? Int ?? 0) / 100
            + Double(survey["mean\(axis)HP"] as? Int ?? 0) / 10_000
        }
        let sent = ["DF025", "DF026", "DF027"].map { station[$0] as? Double ?? 0 }
        for (a, b) in zip(mean, sent) { #expect(abs(a - b) < 0.000_2, "\(mean) vs \(sent)") }
      }
    }
  }

  /// An F9P started with `--base 48.85,2.35,60` at 115,200 baud.
  static func commandLineBase() throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration(
      source: .fixed(GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 60)),
      pacing: try BytePacing(baud: 115_200), profile: .ubloxF9P)
    configuration.isBase = true
    return try EmulatorHarness(configuration: configuration)
  }

  /// `--base` (`isBase` on a fixed position): the station sends 1005, the MSM4 of GPS, GLONASS,
  /// Galileo and BeiDou, and 1230 from its first epochs, 1005 at the configured antenna.
  @Test func aBaseFromTheCommandLineSendsItsStreamFromTheStart() throws {
    let harness = try Self.commandLineBase()
    defer { harness.stop() }
    _ = try harness.step()
    var demultiplexer = InputDemultiplexer()
    let messages = demultiplexer.append(try harness.step()).compactMap { message -> RTCMMessage? in
      guard case .rtcm(.frame(let frame)) = message else { return nil }
      return try? RTCMMessage(frame: frame)
    }
    #expect(messages.map(\.messageNumber) == [1005, 1074, 1084, 1094, 1124, 1230])
    guard case .stationReference(let station) = messages.first else { return }
    // 60 m above the geoid: the ellipsoid height adds the EGM96 separation at Paris (about
    // 45 m); the horizontal position is the configured one.
    let sent = EarthCenteredPosition(x: station.x, y: station.y, z: station.z)
    let frame = LocalTangentFrame(at: GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 0))
    let offset = frame.eastNorthUp(of: sent)
    #expect(abs(offset.east) < 0.001 && abs(offset.north) < 0.001, "\(offset)")
    #expect(offset.up > 100 && offset.up < 110, "\(offset.up) m above the ellipsoid")
  }
}
