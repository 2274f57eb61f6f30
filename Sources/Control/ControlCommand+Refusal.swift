extension ControlCommand {
  /// The commands `source` takes, those that only read first, then in the table's order:
  /// `status, subscribe, pause, resume and seek`.
  public static func names(acceptedBy source: ControlSource, changesReceiver: Bool? = nil)
    -> [String]
  {
    let taken = all.filter { (command: ControlCommand) in
      command.sources.contains(source)
        && (changesReceiver == nil || command.changesReceiver == changesReceiver)
    }
    let reads = taken.filter { !$0.changesReceiver }
    let changes = taken.filter { $0.changesReceiver }
    return (reads + changes).map { $0.name }
  }

  /// The reply's error when a source that does not take this command is asked it, naming what
  /// that source takes instead.
  public func refusal(on source: ControlSource) -> String {
    if sources == [.passthrough] {
      return "\(name) applies to a passthrough (--passthrough) only"
    }
    switch source {
    case .passthrough:
      let instead = Self.names(acceptedBy: .passthrough, changesReceiver: true)
      return "\(name): a passthrough sends the real receiver's fix; use "
        + Self.sentence(instead)
    case .replay:
      return "\(name): a replay sends its log as recorded; only "
        + Self.sentence(Self.names(acceptedBy: .replay)) + " apply"
    case .simulated:
      return "\(name): this emulator's source is not a simulated scene"
    }
  }

  /// `a`, `a and b`, `a, b and c`.
  static func sentence(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " and " + last
  }
}
