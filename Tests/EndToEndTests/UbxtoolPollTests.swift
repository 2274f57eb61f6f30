import Foundation
import Testing

/// gpsd's real `ubxtool` polls and configures each u-blox profile (`-P 18` for the M8,
/// `-P 27.31` for the F9P), through `Tests/Tools/ubxtool_polls.py`: every request must be
/// answered as the chip answers it, in ubxtool's decoding and, for the same request bytes,
/// in pyubx2's. A failure names exactly the requests that were not.
@Suite struct UbxtoolPollTests {
  /// One request of the runner's table, for one chip.
  struct Row: Sendable {
    let chip: String
    /// The runner's name of the request (`NAV-PVT`, `VALSET CFG-NAVSPG-DYNMODEL`).
    let request: String
    /// Why the profile still does not answer it as the chip does, nil when it does.
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

  /// Why a request still fails: the F9P profile's CFG catalogue has no CFG-PMS and NAKs it.
  static let pmsOnF9P = "CFG-PMS on the F9P profile"

  static let rows: [Row] =
    ["m8", "f9p"].flatMap { chip in
      [
        "NAV-PVT", "NAV-SAT", "NAV-STATUS", "NAV-DOP", "NAV-TIMEGPS", "MON-HW", "MON-GNSS",
        "MON-VER", "CFG-GNSS", "CFG-NAV5", "CFG-TP5", "CFG-SBAS", "CFG-NMEA", "CFG-INF",
        "CFG-ANT", "CFG-PMS", "CFG-RATE", "CFG-PRT",
      ].map {
        Row(chip: chip, request: $0, needs: chip == "f9p" && $0 == "CFG-PMS" ? pmsOnF9P : nil)
      }
    } + [Row(chip: "m8", request: "NAV-SOL", needs: nil)]
    + [
      "MON-RF", "MON-COMMS", "VALGET CFG-NAVSPG-DYNMODEL", "VALGET CFG-SIGNAL-GPS_ENA",
      "VALSET CFG-NAVSPG-DYNMODEL", "VALSET CFG-SIGNAL-GPS_ENA", "VALDEL CFG-NAVSPG-DYNMODEL",
    ].map { Row(chip: "f9p", request: $0, needs: nil) }

  /// Per chip, the rows that `waiting` selects.
  static func cases(waiting: Bool) -> [Case] {
    [("m8", "ublox-m8", 9600), ("f9p", "ublox-f9p", 38400)].map { chip, profile, baud in
      let requests = rows.filter { $0.chip == chip && ($0.needs != nil) == waiting }
      return Case(chip: chip, profile: profile, baud: baud, requests: requests.map(\.request))
    }
  }

  @Test(
    .enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(5)),
    arguments: cases(waiting: false))
  func requestsAnsweredToday(_ c: Case) throws {
    try check(c)
  }

  @Test(
    .disabled("the F9P profile NAKs CFG-PMS, which ubxtool polls"),
    .enabled(if: HostSoftwareOracle.runnable), .timeLimit(.minutes(5)),
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
