import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import RTCM
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// The GLONASS of an F9P base (`--base`, plus 1087 set by a client): pyrtcm reads 1084, 1087
/// and 1230 without error, 1087 carries each slot's channel, and an F9P rover fed the stream
/// reports every message in RXM-RTCM as used (pyubx2) and takes 1084's slots as the station's
/// GLONASS observations. Python runs as a process, hence `.blocking`.
@Suite(.blocking, .timeLimit(.minutes(10))) struct BaseStationGLONASSTests {
  /// One epoch of a `--base` station in Paris that a client also asked for 1087.
  static func baseFrames() throws -> [RTCMFrame] {
    let harness = try BaseStationDeviceTests.commandLineBase()
    defer { harness.stop() }
    _ = try harness.step()
    let msm7 = UBXValueSet.frame([
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_02D2), value: 1)
    ])
    try harness.send(bytes: msm7.bytes, expectingReplies: 1)
    var demultiplexer = InputDemultiplexer()
    return demultiplexer.append(try harness.step()).compactMap { message in
      guard case .rtcm(.frame(let frame)) = message else { return nil }
      return frame
    }
  }

  @Test func pyrtcmReadsTheGLONASSAndARoverReportsIt() throws {
    let frames = try Self.baseFrames()
    let numbers = frames.compactMap(\.messageNumber)
    #expect(numbers == [1005, 1074, 1084, 1094, 1124, 1087, 1230])
    let decoded = try PythonTool.json("decode_rtcm.py", input: Data(frames.flatMap(\.bytes)))
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    #expect(messages.map { $0["identity"] as? String } == numbers.map(String.init))
    let glonass = messages.filter { ["1084", "1087"].contains($0["identity"] as? String) }
    try #require(glonass.count == 2)
    #expect(glonass[0]["DF416"] as? Int == glonass[1]["DF416"] as? Int)
    #expect(glonass[0]["DF034"] as? Int == glonass[1]["DF034"] as? Int)
    let satellites = try glonass.map { message in
      try #require((message["msm"] as? [String: Any])?["satellites"] as? [[String: Any]])
    }
    #expect(satellites[0].count >= 4 && satellites[0].count == satellites[1].count)
    for satellite in satellites[1] {
      let slot = try #require(Int(satellite["PRN"] as? String ?? ""))
      #expect(satellite["DF419"] as? Int == GLONASSChannels.channel(ofSlot: slot).map { $0 + 7 })
    }
    let cells = (glonass[1]["msm"] as? [String: Any])?["cells"] as? [[String: Any]] ?? []
    #expect(Set(cells.compactMap { $0["CELLSIG"] as? String }) == ["1C", "2C"])
    let slots = Set(satellites[0].compactMap { Int($0["PRN"] as? String ?? "") })
    try expectARoverUses(frames, glonassSlots: slots)
  }

  /// An F9P rover fed `frames` reports each in RXM-RTCM as used, and reads 1084 as the
  /// station's observations of `glonassSlots`.
  func expectARoverUses(_ frames: [RTCMFrame], glonassSlots: Set<Int>) throws {
    var rover = UbloxCommandHandler(profile: .ubloxF9P)
    let enable = UBXValueSet.frame([
      UBXConfigurationItem(key: UBXConfigurationKey(0x2091_0269), value: 1)
    ])
    _ = rover.handle(.ubx(enable))
    let replies = frames.flatMap { frame in
      rover.handle(.rtcm(.frame(frame))).flatMap { effect -> [UInt8] in
        if case .reply(let bytes) = effect { return bytes }
        return []
      }
    }
    let decoded = try PythonTool.json("decode_ubx.py", input: Data(replies))
    let reports = try #require(decoded["messages"] as? [[String: Any]])
    #expect(reports.map { $0["msgType"] as? Int } == frames.map(\.messageNumber))
    #expect(reports.allSatisfy { $0["msgUsed"] as? Int == 2 }, "\(reports)")
    let inputs = try frames.compactMap { CorrectionInput(try RTCMMessage(frame: $0)) }
    #expect(
      inputs.contains {
        if case .observations(_, .glonass, glonassSlots, _) = $0 { return true }
        return false
      })
    #expect(inputs.contains(.glonassBiases(stationID: 0)))
  }
}
