import Foundation
import Receiver
import Testing

@testable import mockgps

/// The bash and zsh completions in `scripts/share/completions` offer exactly the subcommands and
/// options the command line takes.
@Suite struct CompletionTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/share/completions")

  static let files = ["mockgps.bash", "_mockgps"]

  static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }

  /// Every `--word` the text mentions.
  static func longOptions(in text: String) -> Set<String> {
    let pattern = /--[a-z][a-z-]*/
    return Set(text.matches(of: pattern).map { String($0.output) })
  }

  @Test(arguments: files) func offersEveryOptionOfRunAndRecordAndNoOther(file: String) throws {
    let text = try Self.text(file)
    #expect(
      Self.longOptions(in: text)
        == Set(RunOptions.allOptions + RecordOptions.allOptions + ["--version", "--json"]))
    for (short, _) in RunOptions.shortOptions {
      #expect(text.contains(short), "\(short) missing from \(file)")
    }
    #expect(text.contains("-h"))
  }

  @Test(arguments: files) func offersEverySubcommand(file: String) throws {
    let text = try Self.text(file)
    let subcommands = HelpPage(Help.main).entries("SUBCOMMANDS").map(\.tag) + ["help"]
    for subcommand in subcommands {
      #expect(text.contains("\(subcommand)"), "\(subcommand) missing from \(file)")
    }
  }

  @Test(arguments: files) func offersTheStandardBauds(file: String) throws {
    let bauds = BytePacing.standardBauds.map(String.init).joined(separator: " ")
    let text = try Self.text(file).replacing(/\n\s+/, with: " ")
    #expect(text.contains(bauds), "\(file) does not offer \(bauds)")
  }
}
