import Testing

@testable import mockgps

@Suite struct ManPageTests {
  static let page = ManPage.render()

  @Test func everyRunOptionIsAnEntryOfTheRunHelpAndTheManPage() {
    let tags = HelpPage(Help.run).entries("OPTIONS").map(\.tag)
    #expect(
      tags == [
        "--link PATH", "--position LAT,LON[,ALT]", "--route FILE", "--scenario FILE",
        "--replay FILE", "--speed M/S", "--accel M/S2", "--turn-rate DEG/S", "--loop", "--once",
        "--time original|now", "--wait-for-client", "--settle SECONDS", "--move-to LAT,LON",
        "--drop-invalid", "--seed N", "--passthrough DEVICE", "--passthrough-baud N|auto",
        "--override MODE", "--offset NORTH_M,EAST_M", "--control PATH",
        "--control-group NAME", "--no-control", "--profile NAME", "--almanac FILE",
        "--constellations LIST", "--rate HZ", "--baud N", "--baud-mismatch MODE",
        "--output-delay MS[±JITTER]", "--base LAT,LON[,ALT]", "--moving-base",
        "--antenna-offset FORWARD,RIGHT[,UP]", "--rtk-convergence FLOAT,FIXED",
        "--state-dir DIR",
        "--group NAME",
        "--mode OCTAL", "--time-scale X", "--start-time ISO8601", "--tcp [HOST:]PORT",
        "--udp HOST:PORT", "--gpsd-socket PATH", "--panel [HOST:]PORT",
        "--panel-files DIR", "--config FILE", "--shard K/N",
        "-v, --verbose", "-q, --quiet",
        "-h, --help",
      ])
    for option in RunOptions.allOptions {
      let roff = "\\fB" + ManPage.escaped(option) + "\\fR"
      #expect(Self.page.contains(roff), "\(option) missing from the man page")
    }
  }

  /// All but the one-line summaries of the subcommands: their subsections say it at length.
  @Test func everyHelpTextIsInTheManPage() {
    for topic in [HelpTopic.main, .run, .check, .devices, .profiles, .ctl] {
      for block in HelpPage(Help.page(topic)).blocks {
        switch block {
        case .prose(_, let text) where !text.hasPrefix("See '"):
          #expect(Self.page.contains(ManPage.escaped(text)), "missing: \(text)")
        case .list(let title, let entries) where title != "SUBCOMMANDS":
          for entry in entries {
            #expect(Self.page.contains(ManPage.escaped(entry.text)), "missing: \(entry.text)")
          }
        case .usage(let invocations):
          for invocation in invocations {
            let arguments = invocation.split(separator: " ", maxSplits: 1).dropFirst()
            #expect(Self.page.contains(ManPage.escaped(arguments.joined())), "\(invocation)")
          }
        default:
          break
        }
      }
    }
  }

  @Test func everySubcommandHasItsSubsection() {
    let subcommands = HelpPage(Help.main).entries("SUBCOMMANDS").map(\.tag)
    #expect(subcommands == ["run", "record", "check", "ctl", "devices", "profiles"])
    for subcommand in subcommands {
      #expect(ManPage.topic(subcommand) != nil)
      #expect(Self.page.contains(".SS \"mockgps \(subcommand)\"\n"))
    }
  }

  @Test func headerCarriesTheVersionAndNoLineStartsWithARequestByAccident() {
    #expect(
      Self.page.hasPrefix(".TH MOCKGPS 1 \"\" \"mockgps \(Version.number)\" \"User Commands\"\n"))
    for line in Self.page.split(separator: "\n") where line.hasPrefix(".") {
      let request = line.dropFirst().prefix { $0 != " " }
      #expect(["TH", "SH", "SS", "PP", "TP", "BR", "br", "ad", "nh"].contains(request), "\(line)")
    }
  }

  @Test func escapingMarksOptionDashesAsMinusesAndLeavesHyphensAlone() {
    #expect(ManPage.escaped("--rate 5, pseudo-terminal") == "\\-\\-rate 5, pseudo-terminal")
    #expect(ManPage.escaped("[-v | --quiet] 51,-0.1") == "[\\-v | \\-\\-quiet] 51,\\-0.1")
    #expect(ManPage.escaped(".profile \\n") == "\\&.profile \\en")
  }

  @Test func versionIsTheNumberAloneWithoutTheBuildScripts() {
    #expect(Version.commit == nil)
    #expect(Version.text == "mockgps \(Version.number)")
    #expect(Version.number.split(separator: ".").count == 3)
  }

  @Test func manPageOptionIsHidden() throws {
    #expect(try Command.parse(["--help-man"]) == .manPage)
    #expect(!Help.main.contains("--help-man"))
  }
}
