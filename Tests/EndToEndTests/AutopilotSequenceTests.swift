import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// PX4's and ArduPilot's u-blox drivers, replayed step by step by `Tests/Tools/autopilot_ubx.py`
/// against each u-blox profile at its factory baud: the baud search, every CFG step ACK'd (or
/// answered) as the real chip answers it, the messages arriving at the rates set and a 3D fix
/// within 2 s. The tool's step report is the failure message.
@Suite(.blocking) struct AutopilotSequenceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let driver: String
    let profile: String
    let chip: String
    /// The baud the chip's UART1 comes up at.
    let baud: Int
    var testDescription: String { "\(driver) on \(profile)" }
  }

  static let cases = [
    Case(driver: "px4", profile: "ublox-m8", chip: "m8", baud: 9600),
    Case(driver: "px4", profile: "ublox-f9p", chip: "f9p", baud: 38400),
    Case(driver: "ardupilot", profile: "ublox-m8", chip: "m8", baud: 9600),
    Case(driver: "ardupilot", profile: "ublox-f9p", chip: "f9p", baud: 38400),
  ]

  @Test(
    .enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(10)), arguments: cases)
  func driverConfiguresTheReceiverAsARealChipAnswers(_ c: Case) throws {
    let oracle = try HostSoftwareOracle(
      profile: c.profile, baud: c.baud, name: "autopilot-\(c.driver)-\(c.chip)")
    defer { oracle.stop() }
    let run = try oracle.run(
      "autopilot_ubx.py", ["--driver", c.driver, "--chip", c.chip, oracle.device], seconds: 120)
    #expect(run.passed, "\(run.output)")
  }
}
