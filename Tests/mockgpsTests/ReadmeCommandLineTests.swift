import Foundation
import Testing

@testable import mockgps

/// What the README prints of the command line is what the program says: the synopsis under
/// "Options" is the help's, and the start line of the quick start is the one `run` prints.
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

  @Test func theQuickStartShowsTheStartLineOfTheDefaultReceiver() throws {
    guard case .run(let options) = try Command.parse([]) else {
      Issue.record("not run")
      return
    }
    let line =
      "`mockgps: /dev/ttyMOCKGPS -> /dev/pts/3 (\(RunCommand.receiver(options.configuration)))`"
    #expect(Self.readme.contains(line), "\(line)")
  }
}
