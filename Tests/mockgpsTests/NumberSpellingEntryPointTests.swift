import Control
import Foundation
import Geodesy
import InputFiles
import MockGPS
import MockGPSTestSupport
import Replay
import RouteFiles
import TestFixtures
import Testing

@testable import mockgps

/// One table of spellings, and every place mockgps reads a number from gives each the same
/// verdict: the command line, `ctl`, the control socket, the JSON of scenario and config files,
/// GeoJSON, GPX and CSV routes, YUMA almanacs and the headers of logs. A reader that parses
/// numbers its own way (`Double(_:)` takes `+5`, `05`, `inf`, `0x10`) fails a row.
@Suite struct NumberSpellingEntryPointTests {
  /// A spelling and what it reads as: a value, or nil when it is refused.
  struct Row: CustomTestStringConvertible, Sendable {
    /// The text as written.
    let text: String
    /// The value every reader reads, nil when every reader refuses it.
    let value: Double?
    /// Spaces around a number: the white space that lays out a format's fields (JSON, XML,
    /// CSV, YUMA, a log header) goes before the number is read; an argument has no layout,
    /// so the command line and `ctl` refuse it.
    var isLaidOut = false

    /// The text quoted, with its verdict.
    var testDescription: String { "'\(text)' → \(value.map { "\($0)" } ?? "refused")" }
  }

  /// Values between 0.5 and 10, which every reader below accepts by range.
  static let rows: [Row] =
    [
      Row(text: "5", value: 5), Row(text: "2.5", value: 2.5), Row(text: "1e1", value: 10),
      Row(text: "1E0", value: 1), Row(text: "25e-1", value: 2.5), Row(text: "0.5", value: 0.5),
      Row(text: "5.0", value: 5), Row(text: "1.5E+0", value: 1.5),
      Row(text: " 5", value: 5, isLaidOut: true), Row(text: "5 ", value: 5, isLaidOut: true),
    ]
    + [
      "0x10", "0x1p2", "inf", "nan", "Infinity", "+5", "05", ".5", "5.", "1_0", "1,5", "٥", "-",
      "5e", "5e+", "--5", "5 5", "5x", "1e400", "",
    ].map { Row(text: $0, value: nil) }

  /// A reader: the value it takes `text` for, or nil when it refuses it.
  typealias Reader = @Sendable (String) -> Double?

  /// Every entry point, by name.
  static let readers: [(String, Reader)] = [
    ("run --position", commandLine), ("ctl rate", ctl), ("control socket", socket),
    ("JSON (scenario, config)", json), ("GeoJSON", geoJSON), ("GPX", gpx), ("CSV", csv),
    ("YUMA", almanac), ("log header", logHeader),
  ]

  @Test(arguments: rows) func everyEntryPointGivesTheSameVerdict(_ row: Row) {
    for (name, reader) in Self.readers {
      let laidOut = !["run --position", "ctl rate"].contains(name)
      let expected = row.isLaidOut && !laidOut ? nil : row.value
      #expect(reader(row.text) == expected, "\(name)")
    }
  }

  /// `--position 1,2,TEXT`: the altitude.
  static func commandLine(_ text: String) -> Double? {
    let options = try? RunOptions.parse(["--position", "1,2,\(text)"])
    return options?.configuration.fixedPosition.altitudeMeters
  }

  /// `ctl rate TEXT`, as the socket decodes the line ctl sends.
  static func ctl(_ text: String) -> Double? {
    guard let line = try? CtlOptions.parse(["rate", text]).requestLine else { return nil }
    return rate(line)
  }

  /// `{"cmd":"rate","hz":TEXT}` on the control socket.
  static func socket(_ text: String) -> Double? {
    rate(#"{"cmd":"rate","hz":\#(text)}"#)
  }

  /// The rate a request line sets.
  static func rate(_ line: String) -> Double? {
    guard case .rate(let hertz) = try? ControlEnvelope.decode(line: Array(line.utf8)).request
    else { return nil }
    return hertz
  }

  /// A number in the JSON of a scenario or config file: one parser reads them all.
  static func json(_ text: String) -> Double? {
    guard let node = try? JSONParser.parse(Array("[\(text)]".utf8)),
      case .array(let elements) = node.value, elements.count == 1,
      case .number(_, let value) = elements[0].value, value.isFinite
    else { return nil }
    return value
  }

  /// The altitude of a GeoJSON line's first point.
  static func geoJSON(_ text: String) -> Double? {
    let file = #"{"type":"LineString","coordinates":[[14,46,\#(text)],[14.001,46,0]]}"#
    return (try? RouteFile.parse(bytes: Array(file.utf8), name: "n.geojson"))?.points.first?
      .position.altitudeMeters
  }

  /// The longitude attribute of a GPX route's first point.
  static func gpx(_ text: String) -> Double? {
    let file = """
      <?xml version="1.0"?>
      <gpx version="1.1"><rte><rtept lat="46" lon="\(text)"/><rtept lat="46" lon="9"/></rte></gpx>
      """
    return (try? RouteFile.parse(bytes: Array(file.utf8), name: "n.gpx"))?.points.first?
      .position.longitude
  }

  /// The longitude cell of a CSV route's first row (cells apart by semicolons, so that `1,5`
  /// is one cell).
  static func csv(_ text: String) -> Double? {
    let file = "lat;lon\n46;\(text)\n46;9\n"
    return (try? RouteFile.parse(bytes: Array(file.utf8), name: "n.csv"))?.points.first?
      .position.longitude
  }

  /// The first block of the real almanac, its lines in order.
  static let almanacBlock: [String] = {
    let url = Fixtures.almanacDirectory.appendingPathComponent("almanac.yuma.week0149.405504.txt")
    let lines = (try? Fixtures.lines(of: url).map(\.text)) ?? []
    return Array(lines.prefix { !$0.isEmpty })
  }()

  /// The time of applicability of a YUMA almanac's one entry, the real file's first.
  static func almanac(_ text: String) -> Double? {
    let block = almanacBlock.map {
      $0.hasPrefix("Time of Applicability(s):") ? "Time of Applicability(s):  \(text)" : $0
    }
    return (try? AlmanacFile.parse(bytes: Array(block.joined(separator: "\n").utf8), name: "a"))?
      .first?.timeOfApplicabilitySeconds
  }

  /// The seconds of a log's `# Delay-Cookie: | SECONDS` header.
  static func logHeader(_ text: String) -> Double? {
    var header = LogHeader()
    guard header.read(comment: Array("# Delay-Cookie: | \(text)".utf8)) == nil else { return nil }
    return header.delayCookie?.delaySeconds
  }
}
