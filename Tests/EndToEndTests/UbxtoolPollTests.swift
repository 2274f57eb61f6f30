import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// gpsd's real `ubxtool` polls and configures each u-blox profile (`-P 18` for the M8,
/// `-P 27.31` for the F9P), through `Tests/Tools/ubxtool_polls.py`: every request must be
/// answered as the chip answers it, in ubxtool's decoding and, for the same request bytes,
/// in pyubx2's. A failure names exactly the requests that were not.
@Suite(.blocking) struct UbxtoolPollTests {
  /// The requests of one chip run against one emulator.
  struct Case: CustomTestStringConvertible, Sendable {
    let chip: String
    let profile: String
    let baud: Int
    let requests: [String]
    var testDescription: String { "\(profile): \(requests.joined(separator: ", "))" }
  }

  /// The requests of issue 20 both chips answer (the F9P NAKs CFG-PMS, which it does not have:
  /// the runner expects that NAK), with `-p SAVE` (CFG-CFG, ACK'd) and `-p COLDBOOT` (CFG-RST,
  /// never acknowledged: the power-up banner must follow, and it comes last).
  static let common = [
    "NAV-PVT", "NAV-SAT", "NAV-STATUS", "NAV-DOP", "NAV-TIMEGPS", "MON-HW", "MON-GNSS", "MON-VER",
    "CFG-GNSS", "CFG-NAV5", "CFG-TP5", "CFG-SBAS", "CFG-NMEA", "CFG-INF", "CFG-ANT", "CFG-PMS",
    "CFG-RATE", "CFG-PRT", "SAVE", "COLDBOOT",
  ]

  static let cases = [
    Case(chip: "m8", profile: "ublox-m8", baud: 9600, requests: common + ["NAV-SOL"]),
    Case(
      chip: "f9p", profile: "ublox-f9p", baud: 38400,
      requests: common + [
        "MON-RF", "MON-COMMS", "VALGET CFG-NAVSPG-DYNMODEL", "VALGET CFG-SIGNAL-GPS_ENA",
        "VALSET CFG-NAVSPG-DYNMODEL", "VALSET CFG-SIGNAL-GPS_ENA", "VALDEL CFG-NAVSPG-DYNMODEL",
      ]),
  ]

  @Test(.enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(10)), arguments: cases)
  func everyRequestIsAnsweredAsTheChipAnswers(_ c: Case) throws {
    try check(c)
  }

  /// Runs the runner for the case's requests and expects each one "ok".
  func check(_ c: Case) throws {
    let oracle = try HostSoftwareOracle(
      profile: c.profile, baud: c.baud, name: "ubxtool-\(c.chip)")
    defer { oracle.stop() }
    let run = try oracle.run(
      "ubxtool_polls.py", ["--chip", c.chip, oracle.device] + c.requests, seconds: 240)
    let verdicts = HostSoftwareOracle.verdicts(run.output)
    #expect(Set(verdicts.keys) == Set(c.requests), "\(run.output)")
    for request in c.requests {
      #expect(verdicts[request] == "ok", "\(request): \(verdicts[request] ?? "no verdict")")
    }
  }
}
