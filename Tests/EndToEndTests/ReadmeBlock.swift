import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// One fenced code block of the README: where it is, its language and its lines.
struct ReadmeBlock: CustomStringConvertible {
  /// The line of the opening fence, counting from 1.
  var line: Int
  /// What follows the opening fence (`sh`, `json`, `python`, `swift` or nothing).
  var language: String
  /// The lines between the fences.
  var lines: [String]

  var description: String { "README.md:\(line) (```\(language)): \(lines.first ?? "")" }

  static let readme: String =
    (try? String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8))
    ?? ""

  /// Every fenced block of the README, in order.
  static let all: [ReadmeBlock] = {
    var blocks: [ReadmeBlock] = []
    var open: ReadmeBlock?
    for (index, raw) in readme.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let text = String(raw)
      if text.hasPrefix("```") {
        if let block = open {
          blocks.append(block)
          open = nil
        } else {
          open = ReadmeBlock(line: index + 1, language: String(text.dropFirst(3)), lines: [])
        }
      } else {
        open?.lines.append(text)
      }
    }
    return blocks
  }()

  /// The one block with a line that contains `text`.
  static func containing(_ text: String) throws -> ReadmeBlock {
    let found = all.filter { $0.lines.contains { $0.contains(text) } }
    try #require(found.count == 1, "\(found.count) README blocks contain \(text)")
    return found[0]
  }

  /// The first line of the block that contains `text`.
  func line(containing text: String) throws -> String {
    try #require(lines.first { $0.contains(text) }, "no line of \(self) contains \(text)")
  }

  /// `line` as a shell runs it here: its comment dropped, and each `(printed, here)` pair of
  /// `substitutions` (a link, a socket, a port, a file) put in.
  static func command(_ line: String, _ substitutions: [(String, String)]) -> String {
    var command = line.replacing(/\s+#\s.*$/, with: "")
    for (printed, here) in substitutions { command = command.replacing(printed, with: here) }
    return command
  }

  /// Runs `command` with `/bin/sh -c`, `mockgps` meaning the binary built beside the tests;
  /// returns its status (nil when it ran past `seconds`, then killed), output and errors.
  static func run(_ command: String, seconds: Double = 10) throws -> (Int32?, String, String) {
    let folder = URL(fileURLWithPath: MockGPSBinary.path).deletingLastPathComponent().path
    let process = try TestProcess("/bin/sh", ["-c", "PATH=\(folder):$PATH; \(command)"])
    defer { process.kill() }
    let status = process.exitStatus(within: seconds)
    return (status, process.standardOutput, process.standardError)
  }
}
