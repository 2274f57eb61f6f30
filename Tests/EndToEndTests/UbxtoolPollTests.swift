import Foundation
import MockGPSTestSupport
import Testing

/// gpsd's real `ubxtool` polls and configures each u-blox profile (`-P 18` for the M8,
/// `-P 27.31` for the F9P), through `Tests/Tools/ubxtool_polls.py`: every request must be
/// answered as the chip answers it, in ubxtool's decoding and, for the same request bytes,
/// in pyubx2's. A failure names exactly the requests that were not.
@Suite(.blocking) struct UbxtoolPollTests {
  /// One request of the runner's table, for one chip.
  struct Row: Sendable {
    let chip: String
    /// The runner's name of the request (`NAV-PVT`, `VALSET CFG-NAVSPG-DYNMODEL`).
    let request: String
    /// The feature it waits for on main at 5c0d97f (where it is NAK'd or unanswered).
    let needs: String?
  }

  /// The requests of one chip run against one emulator.
  struct Case: CustomTestStringConvertible, Sendable {
    let chip: String
    let profile: String
    let baud: Int
    let requests: [String]
    var testDescription: String { "\(profile): \(requests.joined(separator: ", "))" }
  }

  static let polls = "NAV/MON polls"
  static let configuration = "the u-blox CFG class"
  static let database = "the F9P configuration database"

  static let rows: [Row] =
    ["m8", "f9p"].flatMap { chip in
      [
        ("NAV-PVT", polls), ("NAV-SAT", polls), ("NAV-STATUS", polls), ("NAV-DOP", polls),
        ("NAV-TIMEGPS", polls), ("MON-HW", polls), ("MON-GNSS", polls), ("MON-VER", nil),
        ("CFG-GNSS", configuration), ("CFG-NAV5", configuration), ("CFG-TP5", configuration),
        ("CFG-SBAS", configuration), ("CFG-NMEA", configuration), ("CFG-INF", configuration),
        ("CFG-ANT", configuration), ("CFG-PMS", configuration), ("CFG-RATE", nil),
        ("CFG-PRT", nil),
      ].map { Row(chip: chip, request: $0.0, needs: $0.1) }
    } + [Row(chip: "m8", request: "NAV-SOL", needs: polls)]
    + [
      ("MON-RF", polls), ("MON-COMMS", polls),
      ("VALGET CFG-NAVSPG-DYNMODEL", database), ("VALGET CFG-SIGNAL-GPS_ENA", database),
      ("VALSET CFG-NAVSPG-DYNMODEL", database), ("VALSET CFG-SIGNAL-GPS_ENA", database),
      ("VALDEL CFG-NAVSPG-DYNMODEL", database),
    ].map { Row(chip: "f9p", request: $0.0, needs: $0.1) }

  /// Per chip, the rows that `waiting` selects.
  static func cases(waiting: Bool) -> [Case] {
    [("m8", "ublox-m8", 9600), ("f9p", "ublox-f9p", 38400)].map { chip, profile, baud in
      let requests = rows.filter { $0.chip == chip && ($0.needs != nil) == waiting }
      return Case(chip: chip, profile: profile, baud: baud, requests: requests.map(\.request))
    }
  }

  @Test(
    .enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(10)),
    arguments: cases(waiting: false))
  func requestsAnsweredToday(_ c: Case) throws {
    try check(c)
  }

  @Test(
    .disabled("needs NAV/MON polls, the u-blox CFG class and the F9P configuration database"),
    .enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(10)),
    arguments: cases(waiting: true))
  func requestsAwaitingFeatures(_ c: Case) throws {
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
      let row = Self.rows.first { $0.chip == c.chip && $0.request == request }
      #expect(
        verdicts[request] == "ok",
        "\(request): \(verdicts[request] ?? "no verdict") (needs \(row?.needs ?? "nothing"))")
    }
  }
}
