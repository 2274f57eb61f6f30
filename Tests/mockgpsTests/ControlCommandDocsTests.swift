import Control
import Foundation
import Testing

@testable import mockgps

/// What the docs say of the control commands is the table's (`ControlCommand.all`): the
/// README's table of requests, the completions, `ctl --help` and the man page list exactly its
/// commands in its order, and the panel sends only commands of the table.
@Suite struct ControlCommandDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The `"cmd"` names a text gives, in order.
  static func commands(in text: Substring) -> [String] {
    text.matches(of: /"cmd":"([a-z-]+)"/).map { String($0.output.1) }
  }

  /// The README's table of requests (Control socket): one row per command, or one for
  /// several, in the table's order, each showing the command's example request.
  @Test func theReadmesTableOfRequestsIsTheTables() throws {
    let readme = try Self.text("README.md")
    let rows = readme.split(separator: "\n").drop { $0 != "| Request | What it does |" }
      .dropFirst(2).prefix { $0.hasPrefix("| ") }
    let requests = rows.compactMap { $0.split(separator: "|").first }
    #expect(requests.flatMap(Self.commands(in:)) == ControlCommand.names)
    for command in ControlCommand.all {
      #expect(
        requests.contains { $0.contains("`\(command.example)`") },
        "the README's row of \(command.name) does not show \(command.example)")
    }
  }

  /// The README says which commands a replay answers, as the table's column of sources does.
  @Test func theReadmeNamesWhatAReplayAnswers() throws {
    let names = ControlCommand.names(acceptedBy: .replay).map { "`\($0)`" }
    let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    #expect(try Self.text("README.md").contains("**A replay** (`--replay`) answers \(list);"))
  }

  /// The words a completion offers after `ctl`, besides its options.
  static func ctlWords(_ file: String) throws -> [String] {
    let text = try Self.text("scripts/share/completions/" + file)
    let list: Substring
    if file == "_mockgps" {
      list = try #require(text.firstMatch(of: /'1:command:\(([^)]*)\)'/)).output.1
    } else {
      list = try #require(text.firstMatch(of: /ctl\) candidates="([^"]*)"/)).output.1
    }
    return list.split(whereSeparator: \.isWhitespace).map(String.init).filter {
      !$0.hasPrefix("-")
    }
  }

  @Test(arguments: ["mockgps.bash", "_mockgps"]) func theCompletionsOfferTheTablesCommands(
    file: String
  ) throws {
    #expect(try Self.ctlWords(file) == ControlCommand.names)
  }

  /// `ctl --help` lists each command with its syntax, and the man page (made from the help)
  /// has each too.
  @Test func theHelpAndTheManPageListTheTablesCommands() {
    let lines = Help.ctl.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "COMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
    let tags = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
    #expect(tags.count == ControlCommand.all.count)
    for (tag, command) in zip(tags, ControlCommand.all) {
      #expect(tag == "  " + command.usage || tag.hasPrefix("  \(command.usage) "), "\(tag)")
    }
    let manPage = ManPage.render()
    for command in ControlCommand.all {
      #expect(manPage.contains(ManPage.escaped(command.usage)), "\(command.name)")
    }
  }

  /// The panel's page sends `{cmd: '…'}` and `request('…', …)` requests: each names a command
  /// of the table.
  @Test func thePanelSendsOnlyCommandsOfTheTable() throws {
    let script = try Self.text("Sources/Panel/page/panel.js")
    let literal = script.matches(of: /cmd: (?:[a-z]+ \? )?'([a-z-]+)'(?: : '([a-z-]+)')?/)
      .flatMap { [String($0.output.1)] + ($0.output.2.map { [String($0)] } ?? []) }
    let built = script.matches(of: /request\('([a-z-]+)'/).map { String($0.output.1) }
    let sent = literal + built
    #expect(Set(sent).count >= 11)
    for name in sent { #expect(ControlCommand.named(name) != nil, "\(name)") }
  }
}
