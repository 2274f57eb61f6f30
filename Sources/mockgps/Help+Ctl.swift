import Control

extension Help {
  /// The column where a command's description starts in `mockgps ctl --help`.
  static let ctlDescriptionColumn = 26

  /// The `COMMANDS:` entries of `mockgps ctl --help`, one for each row of
  /// `ControlCommand.all` in its order: the command and its arguments, then its help lines at
  /// `ctlDescriptionColumn` (below it when the command's words reach that far). The man page
  /// is made from this page, so both list exactly the table's commands.
  static var ctlCommands: String {
    var lines: [String] = []
    let indent = String(repeating: " ", count: ctlDescriptionColumn)
    for command in ControlCommand.all {
      let tag = "  " + command.usage
      var help = command.help[...]
      if tag.count < ctlDescriptionColumn, let first = help.popFirst() {
        let gap = String(repeating: " ", count: ctlDescriptionColumn - tag.count)
        lines.append(tag + gap + first)
      } else {
        lines.append(tag)
      }
      lines += help.map { indent + $0 }
    }
    return lines.joined(separator: "\n")
  }
}
