/// A help page taken apart into the blocks it is written in, so that the man page can be made
/// from the very text `--help` prints.
///
/// A page is blocks separated by blank lines. A block that starts with `TITLE:` at the margin is
/// a section: `USAGE:` holds one invocation per line that starts with `mockgps` (indented
/// lines continue it); `OPTIONS:` and `SUBCOMMANDS:` hold entries, a tag indented by two
/// spaces and its description after a gap or on the more indented lines below; any other title
/// (`OVERVIEW:`, `EXIT STATUS:`) holds prose. A block without a title is prose.
struct HelpPage: Equatable {
  enum Block: Equatable {
    case prose(title: String?, text: String)
    case usage([String])
    case list(title: String, entries: [Entry])
  }

  struct Entry: Equatable {
    var tag: String
    var text: String
  }

  var blocks: [Block]

  init(_ page: String) {
    blocks = page.split(separator: "\n\n").compactMap { Self.block(String($0)) }
  }

  /// The prose of the section `title`, or nil.
  func prose(_ title: String) -> String? {
    for case .prose(let blockTitle, let text) in blocks where blockTitle == title { return text }
    return nil
  }

  /// The entries of the list `title`, or none.
  func entries(_ title: String) -> [Entry] {
    for case .list(let blockTitle, let entries) in blocks where blockTitle == title {
      return entries
    }
    return []
  }

  private static func block(_ text: String) -> Block? {
    var lines = text.split(separator: "\n").map(String.init)
    guard let first = lines.first else { return nil }
    var title: String?
    if let colon = first.firstIndex(of: ":"),
      first[..<colon].allSatisfy({ $0.isUppercase || $0 == " " }),
      first[..<colon].first?.isUppercase == true
    {
      title = String(first[..<colon])
      lines[0] = String(first[first.index(after: colon)...])
    }
    switch title {
    case "USAGE":
      var invocations: [String] = []
      for line in lines.map(trimmed) where !line.isEmpty {
        if line.hasPrefix("mockgps") || invocations.isEmpty {
          invocations.append(line)
        } else {
          invocations[invocations.count - 1] += " " + line
        }
      }
      return .usage(invocations)
    case "OPTIONS", "SUBCOMMANDS":
      var entries: [Entry] = []
      for line in lines.dropFirst() {
        let indent = line.prefix { $0 == " " }.count
        if indent == 2 {
          let (tag, text) = splitEntry(trimmed(line))
          entries.append(Entry(tag: tag, text: text))
        } else if !entries.isEmpty {
          let more = trimmed(line)
          let current = entries[entries.count - 1].text
          entries[entries.count - 1].text = current.isEmpty ? more : current + " " + more
        }
      }
      return .list(title: title ?? "", entries: entries)
    default:
      let text = lines.map(trimmed).filter { !$0.isEmpty }.joined(separator: " ")
      return .prose(title: title, text: text)
    }
  }

  /// `--rate HZ               Epochs…` as the tag and the text after the first gap of two
  /// or more spaces.
  private static func splitEntry(_ line: String) -> (String, String) {
    guard let gap = line.firstRange(of: "  ") else { return (line, "") }
    return (String(line[..<gap.lowerBound]), trimmed(String(line[gap.upperBound...])))
  }

  private static func trimmed(_ text: String) -> String {
    String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
