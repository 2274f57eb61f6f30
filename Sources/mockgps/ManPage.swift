/// The manual page `mockgps.1`, in roff, made from the help pages (`mockgps --help-man`), so
/// that it says what `--help` says and cannot drift from it.
enum ManPage {
  static let summary = "emulate a serial GPS receiver on a pseudo-terminal"

  /// The whole page.
  static func render() -> String {
    let main = HelpPage(Help.main)
    var lines = [
      ".TH MOCKGPS 1 \"\" \"mockgps \(Version.number)\" \"User Commands\"",
      // Left-aligned and unhyphenated: option names and paths must read as typed.
      ".ad l", ".nh",
      ".SH NAME", "mockgps \\- \(summary)",
      ".SH SYNOPSIS",
    ]
    lines += usage(main).dropFirst()
    lines += [".SH DESCRIPTION"] + prose(main)
    lines += [".SH OPTIONS"] + list(main.entries("OPTIONS"))
    lines.append(".SH COMMANDS")
    var trailing: [(String, String)] = []
    for entry in main.entries("SUBCOMMANDS") {
      guard let topic = topic(entry.tag) else { continue }
      let page = HelpPage(Help.page(topic))
      lines += [".SS \"mockgps \(entry.tag)\""] + usage(page) + prose(page)
      for case .list(let title, let entries) in page.blocks {
        lines += [".PP", "\(capitalized(title)):"] + list(entries)
      }
      for case .prose(let title?, let text) in page.blocks where title != "OVERVIEW" {
        trailing.append((title, text))
      }
    }
    for (title, text) in trailing {
      lines += [".SH \"\(title)\"", escaped(text)]
    }
    lines += files + seeAlso
    return lines.joined(separator: "\n") + "\n"
  }

  /// The subcommand a `SUBCOMMANDS:` tag names.
  static func topic(_ tag: String) -> HelpTopic? {
    switch tag {
    case "run": return .run
    case "devices": return .devices
    case "check": return .check
    case "record": return .record
    case "profiles": return .profiles
    case "ctl": return .ctl
    default: return nil
    }
  }

  static let files = [
    ".SH FILES",
    ".TP", "\\fI/etc/mockgps/\\fRINSTANCE\\fI.conf\\fR",
    "The arguments of \\fBmockgps run\\fR for the systemd unit \\fBmockgps@\\fRINSTANCE"
      + "\\fB.service\\fR, which publishes the receiver at \\fI/dev/\\fRINSTANCE: a line "
      + "\\fBMOCKGPS_ARGS=\"\\-\\-position 48.8584,2.2945,35 \\-\\-rate 5\"\\fR "
      + "(systemd environment file syntax; \\fB\\-\\-link\\fR is set by the unit).",
  ]

  static let seeAlso = [
    ".SH \"SEE ALSO\"",
    ".BR gpsd (8),",
    ".BR gpspipe (1),",
    ".BR systemd.exec (5)",
  ]

  /// A paragraph of invocations, one a line: `.PP`, then `\fBmockgps run\fR [\-\-link …]`.
  private static func usage(_ page: HelpPage) -> [String] {
    var lines = [".PP"]
    for case .usage(let invocations) in page.blocks {
      for invocation in invocations {
        if lines.count > 1 { lines.append(".br") }
        let words = invocation.split(separator: " ", maxSplits: 1).map(String.init)
        lines.append("\\fB\(words[0])\\fR " + escaped(words.dropFirst().joined()))
      }
    }
    return lines
  }

  /// The overview and the untitled paragraphs, without the pointers to other help pages.
  private static func prose(_ page: HelpPage) -> [String] {
    var lines: [String] = []
    for case .prose(let title, let text) in page.blocks
    where (title == nil || title == "OVERVIEW") && !text.hasPrefix("See '") {
      lines += [".PP", escaped(text)]
    }
    return lines
  }

  private static func list(_ entries: [HelpPage.Entry]) -> [String] {
    entries.flatMap { [".TP", tag($0.tag), escaped($0.text)] }
  }

  /// Options and subcommands in bold, their values in italics: `\fB\-\-rate\fR \fIHZ\fR`.
  private static func tag(_ text: String) -> String {
    text.split(separator: " ").map { word in
      let comma = word.hasSuffix(",") ? "," : ""
      let bare = String(comma.isEmpty ? word : word.dropLast())
      let isName = bare.hasPrefix("-") || bare.first?.isLowercase == true
      return (isName ? "\\fB" : "\\fI") + escaped(bare) + "\\fR" + comma
    }.joined(separator: " ")
  }

  private static func capitalized(_ title: String) -> String {
    title.prefix(1) + title.dropFirst().lowercased()
  }

  /// Text safe on a roff line: backslashes escaped, a minus where a dash starts an option, and
  /// no request character at the start.
  static func escaped(_ text: String) -> String {
    var result = ""
    var previous: Character = " "
    for character in text {
      switch character {
      case "\\": result += "\\e"
      case "-" where " [(|,=-".contains(previous): result += "\\-"
      default: result.append(character)
      }
      previous = character
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }
}
