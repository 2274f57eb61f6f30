import Foundation
import Glibc
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// The NAV and MON polls gpsd's `ubxtool` sends, answered by a running mockgps on its device:
/// every answer is read raw from the pseudo-terminal and decoded by pyubx2
/// (`Tests/Tools/decode_ubx.py`); the NAV answers carry the fix the epochs report; then the
/// real `ubxtool` polls each message and prints it.
@Suite(.blocking, .serialized) struct UbloxPollProcessTests {
  static let (latitude, longitude, altitude) = (47.376887, 8.541694, 408.0)

  /// The polls ubxtool found unanswered, and the rest of the chip's NAV and MON messages.
  static func polls(_ profile: ReceiverProfile) -> [UBXMessageType] {
    let monitor: [UBXMessageType] =
      profile.commandSet == .ubloxF9
      ? [.monVER, .monHW, .monHW2, .monRF, .monGNSS, .monCOMMS, .monRXBUF, .monTXBUF, .monMSGPP]
      : [.monVER, .monHW, .monHW2, .monGNSS, .monRXBUF, .monTXBUF, .monMSGPP]
    return UBXNavigationEncoder(profile: profile).navigationMessages + monitor
  }

  /// Starts mockgps with `profile` at 115200 baud and opens its device after the first epoch.
  static func start(_ profile: ReceiverProfile, in directory: ScratchDirectory) throws -> (
    TestProcess, DeviceReader, String
  ) {
    let link = directory.path + "/tty"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", profile.name,
      "--position", "\(Self.latitude),\(Self.longitude),\(Self.altitude)", "--baud", "115200",
    ])
    let device = try DeviceReader(path: link)
    _ = device.readUntil(type: "GGA", timeoutSeconds: 3)
    return (emulator, device, link)
  }

  @Test(.timeLimit(.minutes(10)), arguments: ["ublox-m8", "ublox-f9p"])
  func everyPollIsAnsweredOnTheWireAndPyubx2ReadsIt(_ name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    let directory = try ScratchDirectory("polls-\(name)")
    defer { directory.remove() }
    let (emulator, device, _) = try Self.start(profile, in: directory)
    defer { emulator.kill() }
    let polls = Self.polls(profile)
    for type in polls {
      _ = try device.descriptor.write(UBXFrame(type).bytes[...])
    }
    var demultiplexer = InputDemultiplexer()
    let messages = demultiplexer.append(ProfileWireDecodeTests.readRaw(device, seconds: 2.5))
    let frames = messages.compactMap { message -> [UInt8]? in
      guard case .ubx(let frame) = message else { return nil }
      return frame.bytes
    }
    let ubx = try PythonTool.json("decode_ubx.py", input: Data(frames.joined()))
    #expect((ubx["errors"] as? [String])?.isEmpty == true, "\(ubx["errors"] ?? "")")
    let decoded = try #require(ubx["messages"] as? [[String: Any]])
    let identities = decoded.compactMap { $0["identity"] as? String }
    // The chip sends no UBX of its own at power-up: every message is an answer, once.
    #expect(identities == polls.map(\.description))
    let pvt = try #require(decoded.first { $0["identity"] as? String == "NAV-PVT" })
    #expect(abs((pvt["lat"] as? Double ?? 0) - Self.latitude) <= 1e-6, "\(pvt)")
    #expect(abs((pvt["hMSL"] as? Double ?? 0) - Self.altitude) <= 0.002, "\(pvt)")
    let llh = try #require(decoded.first { $0["identity"] as? String == "NAV-POSLLH" })
    #expect(abs((llh["lon"] as? Double ?? 0) - Self.longitude) <= 1e-6, "\(llh)")
  }
}

/// gpsd's own `ubxtool` polling each message of a running mockgps, as a user checks a chip.
@Suite(.blocking, .serialized) struct UbxtoolPollProcessTests {
  static let ubxtool = "/usr/bin/ubxtool"

  @Test(
    .timeLimit(.minutes(10)), .enabled(if: FileManager.default.fileExists(atPath: ubxtool)),
    arguments: [("ublox-m8", "18"), ("ublox-f9p", "27.31")])
  func ubxtoolPrintsTheAnswerToEachPoll(_ name: String, _ protocolVersion: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    let directory = try ScratchDirectory("ubxtool-\(name)")
    defer { directory.remove() }
    // ubxtool is the device's only client, as when a user checks a chip: the reader that
    // waited for the first epoch closes here.
    let (emulator, _, link) = try UbloxPollProcessTests.start(profile, in: directory)
    defer { emulator.kill() }
    // ubxtool has no preset for NAV-EOE, which only ends an epoch.
    for type in UbloxPollProcessTests.polls(profile) where type != .navEOE {
      let tool = try TestProcess(
        Self.ubxtool,
        ["-p", type.description, "-f", link, "-s", "115200", "-P", protocolVersion, "-w", "1.5"])
      let status = tool.exitStatus(within: 20)
      if status == nil { tool.kill() }
      #expect(status == 0, "\(type): \(tool.standardError)")
      // Its output pipe drains on a thread of its own, which may lag behind its exit.
      let expected = "UBX-\(type.description):"
      #expect(
        tool.wait(seconds: 10) { tool.standardOutput.contains(expected) },
        "\(type) not in ubxtool's output:\n\(tool.standardOutput.suffix(2000))")
    }
  }
}
