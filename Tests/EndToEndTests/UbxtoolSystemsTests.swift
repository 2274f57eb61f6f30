import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// gpsd 3.22's ubxtool switches satellite systems off and on (`-d GLONASS`, `-e GALILEO`: a
/// CFG-GNSS of one block, which the F9P translates into its CFG-SIGNAL keys), and the NMEA the
/// device sends next lists the systems tracked, as a real chip's does.
@Suite(.blocking) struct UbxtoolSystemsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let profile: String
    /// ubxtool's `-P`: the protocol version it writes for.
    let protocolVersion: String
    /// ubxtool's arguments in turn, each with the GSV talkers the device sends after it.
    let steps: [([String], Set<String>)]
    var testDescription: String { profile }
  }

  static let cases = [
    Case(
      profile: "ublox-m8", protocolVersion: "18",
      steps: [(["-d", "GLONASS"], ["GP"]), (["-e", "GALILEO"], ["GP", "GA"])]),
    Case(
      profile: "ublox-f9p", protocolVersion: "27.31",
      steps: [
        (["-d", "GLONASS"], ["GP", "GA", "GB"]), (["-e", "GLONASS"], ["GP", "GL", "GA", "GB"]),
      ]
    ),
  ]

  /// The talkers of the GSV sentences among the next `count` lines the device sends.
  static func gsvTalkers(_ device: DeviceReader, lines count: Int) -> Set<String> {
    Set(
      device.readLines(count, timeoutSeconds: 5).map(\.text).filter {
        $0.hasPrefix("$") && $0.dropFirst(3).hasPrefix("GSV,")
      }.map { String($0.dropFirst().prefix(2)) })
  }

  @Test(
    .enabled(if: UbxtoolConfigurationTests.ubxtool != nil), .timeLimit(.minutes(10)),
    arguments: cases)
  func ubxtoolSwitchesSystemsAndTheSentencesFollow(_ c: Case) throws {
    let directory = try ScratchDirectory("ubxtool-systems-\(c.profile)")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    let (emulator, _) = try MockGPSBinary.start([
      "--link", link, "--profile", c.profile, "--position", "48.1,11.5", "--baud", "115200",
    ])
    defer { emulator.kill() }
    for (arguments, talkers) in c.steps {
      let ubxtool = try TestProcess(
        UbxtoolConfigurationTests.ubxtool ?? "ubxtool",
        ["-f", link, "-s", "115200", "-P", c.protocolVersion, "-w", "1"] + arguments)
      guard ubxtool.exitStatus(within: 30) == 0 else {
        ubxtool.kill()
        throw TestFailure("ubxtool \(arguments) failed: \(ubxtool.standardError)")
      }
      #expect(ubxtool.standardOutput.contains("ACK to Class x06 (CFG) ID x3e"), "\(arguments)")
      let device = try DeviceReader(path: link)
      #expect(Self.gsvTalkers(device, lines: 60) == talkers, "after ubxtool \(arguments)")
    }
  }
}
