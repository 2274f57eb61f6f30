import Foundation
import Geodesy
import InputFiles
import RouteFiles
import Simulation
import TestFixtures
import Testing

/// Malformed scenario files: each problem reported with its line, JSON path and expectation.
@Suite struct ScenarioFileTests {
  static let start = #""start": {"time": "2024-07-01T12:00:00Z", "position": [46, 14]}"#

  /// The diagnostics of a document, one line each; empty when it reads cleanly.
  static func diagnostics(_ json: String) -> [String] {
    do {
      _ = try ScenarioFile.parse(bytes: Array(json.utf8), name: "s.json", baseDirectory: "/tmp")
      return []
    } catch {
      guard case .invalid(let list) = error else { return ["unexpected \(error)"] }
      return list.map(\.description)
    }
  }

  /// A document with the good start and these events.
  static func events(_ events: String) -> String {
    "{\(start), \"timeline\": [\(events)]}"
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let expected: [String]
    var testDescription: String { name }
  }

  static let actions =
    "hold, goto, route, fix, dop, satellites, outage, jump, noise, clock, cold-start, silence, corrupt"

  static let cases: [Case] = [
    Case(
      name: "syntax error", json: #"{"start": ,}"#,
      expected: ["s.json:1:11: invalid JSON: expected a value, got ','"]),
    Case(
      name: "trailing comma on line 3", json: "{\n \"timeline\": [1,\n 2,]}",
      expected: ["s.json:3:4: invalid JSON: expected a value, got ']'"]),
    Case(
      name: "unterminated", json: #"{"start": {"time": "2024"#,
      expected: [
        "s.json:1:25: invalid JSON: expected '\"' to end the string, got the end of the file"
      ]),
    Case(
      name: "not an object", json: "[]",
      expected: ["s.json:1: (top level): expected an object, got an array"]),
    Case(
      name: "missing start and timeline", json: "{}",
      expected: [
        "s.json:1: start: missing; expected an object with time and position",
        "s.json:1: timeline: missing; expected an array of events",
      ]),
    Case(
      name: "unknown top-level field", json: "{\(start), \"timeline\": [], \"speed\": 3}",
      expected: [
        "s.json:1: speed: unknown field; expected one of comment, start, seed, limits, timeline"
      ]),
    Case(
      name: "bad start time",
      json: #"{"start": {"time": "2024-13-01T00:00:00Z", "position": [46, 14]}, "timeline": []}"#,
      expected: [#"s.json:1: start.time: month 13 is outside 1...12, got "2024-13-01T00:00:00Z""#]),
    Case(
      name: "latitude out of range",
      json: #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [91, 14]}, "timeline": []}"#,
      expected: ["s.json:1: start.position[0]: expected a number in -90...90, got 91"]),
    Case(
      name: "infinite longitude",
      json:
        #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [46, 1e999]}, "timeline": []}"#,
      expected: ["s.json:1: start.position[1]: expected a number in -180...180, got 1e999"]),
    Case(
      name: "position too short",
      json: #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [46]}, "timeline": []}"#,
      expected: [
        "s.json:1: start.position: expected [latitude, longitude] or [latitude, longitude, "
          + "altitude], got an array"
      ]),
    Case(
      name: "negative seed", json: "{\(start), \"seed\": -1, \"timeline\": []}",
      expected: ["s.json:1: seed: expected a whole number in 0...18446744073709551615, got -1"]),
    Case(
      name: "seed beyond 64 bits",
      json: "{\(start), \"seed\": 18446744073709551616, \"timeline\": []}",
      expected: [
        "s.json:1: seed: expected a whole number in 0...18446744073709551615, got "
          + "18446744073709551616"
      ]),
    Case(
      name: "unknown action", json: events(#"{"at": 0, "do": "teleport"}"#),
      expected: [#"s.json:1: timeline[0].do: expected one of \#(actions), got "teleport""#]),
    Case(
      name: "unknown fix mode", json: events(#"{"at": 0, "do": "fix", "mode": "4d"}"#),
      expected: [
        #"s.json:1: timeline[0].mode: expected one of none, 2d, 3d, dgps, rtk-float, rtk-fixed, got "4d""#
      ]),
    Case(
      name: "negative at", json: events(#"{"at": -1, "do": "hold"}"#),
      expected: ["s.json:1: timeline[0].at: expected a number in 0...1000000000, got -1"]),
    Case(
      name: "at as a string", json: events(#"{"at": "10", "do": "hold"}"#),
      expected: [#"s.json:1: timeline[0].at: expected a number in 0...1000000000, got "10""#]),
    Case(
      name: "missing at", json: events(#"{"do": "hold"}"#),
      expected: ["s.json:1: timeline[0].at: missing; expected a number in 0...1000000000"]),
    Case(
      name: "at going backwards",
      json: events(#"{"at": 10, "do": "hold"}, {"at": 10, "do": "hold"}, {"at": 5, "do": "hold"}"#),
      expected: [
        "s.json:1: timeline[2].at: expected events in time order, at 10 or later, got 5"
      ]),
    Case(
      name: "negative duration", json: events(#"{"at": 0, "do": "silence", "for": -2}"#),
      expected: [
        "s.json:1: timeline[0].for: expected a number above 0 and at most 1000000000, got -2"
      ]),
    Case(
      name: "rate above 1", json: events(#"{"at": 0, "do": "corrupt", "rate": 1.5}"#),
      expected: ["s.json:1: timeline[0].rate: expected a number in 0...1, got 1.5"]),
    Case(
      name: "unknown corruption style",
      json: events(#"{"at": 0, "do": "corrupt", "style": "bits"}"#),
      expected: [#"s.json:1: timeline[0].style: expected one of checksum, truncate, got "bits""#]),
    Case(
      name: "negative speed",
      json: events(#"{"at": 0, "do": "goto", "position": [46, 15], "speed": -3}"#),
      expected: ["s.json:1: timeline[0].speed: expected a number above 0 and at most 5000, got -3"]),
    Case(
      name: "field the action does not take", json: events(#"{"at": 0, "do": "hold", "for": 3}"#),
      expected: ["s.json:1: timeline[0].for: unknown field; expected one of at, do, comment"]),
    Case(
      name: "a field given twice", json: events(#"{"at": 0, "at": 1, "do": "hold"}"#),
      expected: ["s.json:1: timeline[0].at: given twice; give each field once"]),
    Case(
      name: "fractional satellite count",
      json: events(#"{"at": 0, "do": "satellites", "count": 4.5}"#),
      expected: ["s.json:1: timeline[0].count: expected a whole number in 0...99, got 4.5"]),
    Case(
      name: "week rollover false",
      json: events(#"{"at": 0, "do": "clock", "week-rollover": false}"#),
      expected: ["s.json:1: timeline[0].week-rollover: expected true (omit it for no rollover)"]),
    Case(
      name: "clock without offset", json: events(#"{"at": 0, "do": "clock"}"#),
      expected: [
        "s.json:1: timeline[0].offset: missing; expected a number in -10000000...10000000 of "
          + #"seconds, or "week-rollover": true"#
      ]),
    Case(
      name: "jump both ways",
      json: events(#"{"at": 0, "do": "jump", "north": 3, "distance": 30, "bearing": 90}"#),
      expected: [
        "s.json:1: timeline[0].north: expected either north/east or distance/bearing, not both"
      ]),
    Case(
      name: "dop without values", json: events(#"{"at": 0, "do": "dop"}"#),
      expected: [
        "s.json:1: timeline[0].hdop: missing; expected a number above 0 and at most 99.99",
        "s.json:1: timeline[0].vdop: missing; expected a number above 0 and at most 99.99",
      ]),
    Case(
      name: "every problem on its own line",
      json: events(
        "\n" + #"{"at": 0, "do": "fix", "mode": 3},"# + "\n" + #"{"at": 1, "do": "noise"},"#
          + "\n" + #"{"at": 2, "do": "cold-start", "ttff": 0}"#),
      expected: [
        "s.json:2: timeline[0].mode: expected one of none, 2d, 3d, dgps, rtk-float, rtk-fixed, "
          + "got 3",
        "s.json:3: timeline[1].sigma: missing; expected a number in 0...100000",
        "s.json:4: timeline[2].ttff: expected a number above 0 and at most 3600, got 0",
      ]),
  ]

  @Test(arguments: cases)
  func aMalformedFileIsReportedWithItsPath(_ row: Case) {
    #expect(Self.diagnostics(row.json) == row.expected)
  }

  @Test func aHugeNumberIsQuotedCut() {
    let digits = String(repeating: "7", count: 1_000_000)
    let lines = Self.diagnostics("{\(Self.start), \"seed\": \(digits), \"timeline\": []}")
    #expect(
      lines == [
        "s.json:1: seed: expected a whole number in 0...18446744073709551615, got "
          + String(repeating: "7", count: 40) + "… (1000000 characters)"
      ])
  }

  @Test func reportingStopsAtTheDiagnosticLimit() {
    let bad = Array(repeating: #"{"at": 0, "do": "fly"}"#, count: 150).joined(separator: ",")
    #expect(Self.diagnostics(Self.events(bad)).count == InputFileError.diagnosticLimit)
  }

  @Test func aFileOver16MiBIsRefusedUnread() throws {
    let bytes = [UInt8](repeating: 0x20, count: ScenarioFile.maximumBytes + 1)
    #expect(throws: InputFileError.self) {
      try ScenarioFile.parse(bytes: bytes, name: "big.json", baseDirectory: "/tmp")
    }
    do {
      _ = try ScenarioFile.parse(bytes: bytes, name: "big.json", baseDirectory: "/tmp")
    } catch {
      #expect(error.exitCode == 65)
      #expect(
        error.description.hasPrefix("big.json: scenario file of 16777217 bytes: at most 16777216"))
    }
  }

  @Test func aMissingFileIsUnreadable() {
    do {
      _ = try ScenarioFile.load(path: "/nonexistent/mockgps/scenario.json")
      Issue.record("a missing file was read")
    } catch {
      #expect(error.exitCode == 66)
      #expect(
        error.description == "/nonexistent/mockgps/scenario.json: No such file or directory")
    }
  }

  @Test func aFolderIsUnreadable() {
    #expect(
      throws: InputFileError.unreadable(
        path: "/tmp", reason: "is a directory; expected a scenario file")
    ) {
      try ScenarioFile.load(path: "/tmp")
    }
  }

  @Test func aRouteFileThatCannotBeReadIsReportedAtItsField() {
    let lines = Self.diagnostics(
      Self.events(#"{"at": 0, "do": "route", "file": "no-such-route.gpx"}"#))
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasPrefix(
        "s.json:1: timeline[0].file: cannot read route '/tmp/no-such-route.gpx': ") == true)
  }
}

extension ScenarioFileTests {
  @Test func aRoutePathHoldingANULIsRefusedNotCutThere() {
    let lines = Self.diagnostics(
      Self.events(#"{"at": 0, "do": "route", "file": "/etc/passwd\u0000.gpx"}"#))
    #expect(
      lines == [
        #"s.json:1: timeline[0].file: expected the path of a route file without a NUL "#
          + #"character, got "/etc/passwd\u{0}.gpx""#
      ])
  }

  @Test func lineBreaksFromTheFileAreEscapedInDiagnostics() {
    let lines = Self.diagnostics(Self.events(#"{"at": 0, "do": "hold", "a\nb": "x\u2028y"}"#))
    #expect(
      lines == [#"s.json:1: timeline[0].a\nb: unknown field; expected one of at, do, comment"#])
    let mode = Self.diagnostics(Self.events(#"{"at": 0, "do": "fix", "mode": "x\ty"}"#))
    #expect(mode.first?.hasSuffix(#"got "x\ty""#) == true)
  }
}
