import SystemIO

/// The pseudo-terminal, the inotify watch on its slave node, and the emulator's own slave
/// descriptor while clients are there: owned together, used under one lock.
///
/// While no client has the line, the emulator holds no slave descriptor, so the master's
/// hang-up says exactly that. While clients have it, the emulator holds one (the keeper) to
/// count and discard what they leave unread without opening the slave each time. Any open or
/// close by another program makes the emulator look again: it closes its keeper, asks the
/// master, and opens the keeper again when a client is still there. The node reports the
/// emulator's own opens and closes like anyone's, so they are read and dropped right away.
struct DeviceLine: ~Copyable, Sendable {
  let terminal: PseudoTerminal
  let watcher: DeviceNodeWatcherHub.Watch
  private var keeper: FileDescriptor?
  /// True while clients have the line and the emulator holds its keeper.
  private(set) var hasClients = false
  /// True after a look whose last event of the node was an open that the terminal did not
  /// count yet (and no look since showed the client or read a close): the open is in
  /// progress, and a look a moment later sees the client.
  private(set) var openNotYetCounted = false
  /// True after a look that found clients and read a close that came after it asked the
  /// terminal: that client may have been the last, and a look at once tells.
  private(set) var closedSinceAsking = false

  init(terminal: consuming PseudoTerminal, watcher: consuming DeviceNodeWatcherHub.Watch) {
    self.terminal = terminal
    self.watcher = watcher
  }

  /// What changed in a look at the line.
  enum Change: Equatable {
    case none
    /// The first client came: what was written before is discarded.
    case arrived
    /// Another client opened while one had the line (possibly just after the last one closed).
    /// What was left unread was discarded as soon as the node reported the open or the close,
    /// so that it starts with the next epoch; a client still reading may lose the rest of one.
    case joined
    /// The last client left: what it left unread is discarded and the line is raw again.
    case left
  }

  /// Reads what other programs did to the node and, when anything happened (or `always`),
  /// looks whether clients have the line. `raw` is what an unopened line goes back to; with
  /// `discardingForJoiners` false, a client that joins others finds what they left unread.
  ///
  /// `afterAsking` runs right after the terminal was asked (a test opens a client there).
  mutating func look(
    always: Bool, raw: TerminalAttributes, discardingForJoiners: Bool = true,
    afterAsking: () -> Void = {}
  ) -> Change {
    var events = watcher.readEvents()
    guard always || !events.isEmpty else { return .none }
    let had = hasClients
    // First of all, before anything slower: a client that left a moment ago may already have
    // been followed by one that must not read what it left.
    if had && !events.isEmpty && discardingForJoiners { keeper?.discardUnread() }
    if keeper != nil {
      keeper = nil
      // The node reports the keeper's close like anyone's, as the close returns: it is read
      // and dropped before the terminal is asked, and what clients did meanwhile is kept with
      // the events, which the asking accounts for.
      var drained = watcher.readEvents()
      if let own = drained.firstIndex(of: .closed) { drained.remove(at: own) }
      events += drained
    }
    hasClients = terminal.hasClients
    afterAsking()
    // A look without new events keeps what the last ones said, until the client shows.
    openNotYetCounted = !hasClients && (events.last.map { $0 == .opened } ?? openNotYetCounted)
    closedSinceAsking = false
    if hasClients {
      keeper = try? terminal.openSlave()
      // The keeper's open is read and dropped in the same way. A close read with it is a
      // client's after the asking: the line is looked at again at once, since the keeper now
      // hides the hang-up that the last client's close would have shown (the device said it
      // had clients until the next open or close).
      closedSinceAsking = watcher.readEvents().contains(.closed)
      guard !had || events.contains(.opened) else { return .none }
      if !had { keeper?.discardUnread() }
      return had ? .joined : .arrived
    }
    guard had else { return .none }
    terminal.discardUnread()
    // The discard opens and closes the slave, which the node reports: read and dropped, and
    // with them whatever a client did meanwhile, so the terminal is asked again: a client that
    // opened meanwhile is an open in progress, looked at again at once. (A line that had and
    // has no client did nothing the node reports: a client's open stays for the next look;
    // dropping it cost a replay waiting for its first client a second.)
    _ = watcher.readEvents()
    if terminal.hasClients { openNotYetCounted = true }
    // A client that opened since keeps the settings it found: only an unopened line goes
    // back to raw, in one call right after looking.
    if !terminal.hasClients { try? terminal.apply(raw) }
    return .left
  }

  /// Bytes the clients have not read yet.
  func unreadByteCount() -> Int {
    keeper?.unreadByteCount() ?? 0
  }
}
