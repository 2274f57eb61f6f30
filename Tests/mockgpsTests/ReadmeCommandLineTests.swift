import Foundation
import Testing

@testable import mockgps

/// What the README prints of the command line is what the program says: the synopsis under
/// "Options" is the help's, the start line of the quick start is the one `run` prints, the
/// usage error shown is `run`'s, and the config of many receivers checks as its comment says.
@Suite struct ReadmeCommandLineTests {
  static let readme: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
      ?? ""
  }()

  /// The lines of a help page's USAGE, without `USAGE: ` and the indentation under it.
  static func usage(_ page: String) -> [String] {
    var lines: [String] = []
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("USAGE: ") {
        lines.append(String(line.dropFirst(7)))
      } else if !lines.isEmpty {
        guard line.hasPrefix("       ") else { break }
        lines.append(String(line.dropFirst(7)))
      }
    }
    return lines
  }

  @Test func theOptionsSynopsisIsTheHelps() throws {
    let start = try #require(Self.readme.range(of: "## Options\n\n```\n"))
    let end = try #require(Self.readme[start.upperBound...].range(of: "\n```"))
    let block = Self.readme[start.upperBound..<end.lowerBound].split(separator: "\n")
    let others = Self.usage(Help.main).filter {
      !$0.hasPrefix("mockgps [run]") && !$0.contains("--help")
    }
    #expect(block.map(String.init) == Self.usage(Help.run) + others)
  }

  /// The text between `start` and the end of its code block.
  static func block(after start: String) throws -> Substring {
    let from = try #require(readme.range(of: start))
    let end = try #require(readme[from.upperBound...].range(of: "\n```"))
    return readme[from.upperBound..<end.lowerBound]
  }

  @Test func theUsageErrorShownIsRuns() throws {
    let shown = try Self.block(after: "$ mockgps run --rate 40\n")
    #expect(throws: UsageError.self) { try Command.parse(["run", "--rate", "40"]) }
    do {
      _ = try Command.parse(["run", "--rate", "40"])
    } catch {
      #expect(error.report == shown + "\n")
    }
  }

  @Test func theConfigOfManyReceiversChecksAsItsCommentSays() throws {
    let json = try Self.block(after: "one JSON file:\n\n```json\n")
    let directory = NSTemporaryDirectory() + "mockgps-readme-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/fleet.json"
    try FileManager.default.createDirectory(
      atPath: directory + "/legs", withIntermediateDirectories: true)
    try String(json).write(toFile: path, atomically: true, encoding: .utf8)
    // The files the example's devices name: `check` reads them as `run` does.
    #expect(json.contains(#""route": "legs/north.gpx""#))
    #expect(json.contains(#""scenario": "fix-loss.json""#))
    #expect(throws: RunCommand.Failure.self) { try DeviceConfig.load(path: path) }
    try """
    <?xml version="1.0"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><rte>
    <rtept lat="51.5" lon="-0.12"/><rtept lat="51.52" lon="-0.12"/></rte></gpx>
    """.write(toFile: directory + "/legs/north.gpx", atomically: true, encoding: .utf8)
    try """
    {"start": {"time": "2024-07-01T12:00:00Z", "position": [51.5, -0.12]},
     "timeline": [{"at": 0, "do": "hold"}, {"at": 30, "do": "fix", "mode": "none"}]}
    """.write(toFile: directory + "/fix-loss.json", atomically: true, encoding: .utf8)
    let comment = try #require(
      Self.readme.split(separator: "\n").first { $0.hasPrefix("mockgps check fleet.json ") })
    let said = try #require(comment.range(of: "# fleet.json: "))
    #expect(try DeviceConfig.load(path: path).summary == comment[said.upperBound...])
  }

  @Test func theQuickStartShowsTheStartLineOfTheDefaultReceiver() throws {
    guard case .run(let options) = try Command.parse([]) else {
      Issue.record("not run")
      return
    }
    let line =
      "`mockgps: /dev/ttyMOCKGPS -> /dev/pts/3 (\(RunCommand.receiver(options.configuration)))`"
    #expect(Self.readme.contains(line), "\(line)")
  }

  /// The seconds CI gives each fuzz target are the README's (`scripts/test`'s default).
  @Test func ciGivesEachFuzzTargetTheSecondsTheReadmeSays() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let test = try String(contentsOf: root.appendingPathComponent("scripts/test"), encoding: .utf8)
    #expect(test.contains("MOCKGPS_FUZZ_SECONDS:-30"))
    #expect(Self.readme.contains("runs each for 30 s after the tests"))
  }
}
