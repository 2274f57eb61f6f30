import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Many device nodes watched through one inotify instance, on real pseudo-terminals.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct DeviceNodeWatchersTests {
  /// Opens and closes `path` once.
  static func openAndClose(_ path: String) throws {
    let client = try FileDescriptor.open(path, flags: O_RDONLY | O_NOCTTY)
    client.close()
  }

  /// The events of `watch` among `events`.
  static func events(
    of watch: DeviceNodeWatchers.WatchID,
    in events: [(watch: DeviceNodeWatchers.WatchID, event: DeviceNodeWatchers.Event)]
  ) -> [DeviceNodeWatchers.Event] {
    events.filter { $0.watch == watch }.map(\.event)
  }

  /// Waits until the instance has something to read.
  static func waitReadable(_ watchers: borrowing DeviceNodeWatchers) throws {
    _ = try Poll.wait([watchers.descriptor.pollRequest(.readable)], timeoutMilliseconds: 2000)
  }

  @Test func eachNodesOpensAndClosesReachItsOwnWatch() throws {
    let first = try PseudoTerminal.open(baud: 9600)
    let second = try PseudoTerminal.open(baud: 9600)
    var watchers = try DeviceNodeWatchers()
    let firstWatch = try watchers.add(path: first.slavePath)
    let secondWatch = try watchers.add(path: second.slavePath)
    #expect(firstWatch != secondWatch)
    #expect(watchers.watches == [firstWatch, secondWatch])
    try Self.openAndClose(second.slavePath)
    try Self.waitReadable(watchers)
    var events = watchers.readEvents()
    #expect(Self.events(of: secondWatch, in: events) == [.opened, .closed])
    #expect(Self.events(of: firstWatch, in: events).isEmpty)
    try Self.openAndClose(first.slavePath)
    try Self.openAndClose(second.slavePath)
    try Self.waitReadable(watchers)
    events = watchers.readEvents()
    #expect(Self.events(of: firstWatch, in: events) == [.opened, .closed])
    #expect(Self.events(of: secondWatch, in: events) == [.opened, .closed])
    #expect(watchers.readEvents().isEmpty)
  }

  /// A client opening and closing without end must not hold the reader in one read: one call
  /// takes 16 reads of 4 KiB at most, 4,096 records of 16 bytes, and the rest stays queued.
  @Test func oneReadTakesABoundedShareOfAFloodAndLeavesTheRestQueued() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    var watchers = try DeviceNodeWatchers()
    let watch = try watchers.add(path: terminal.slavePath)
    // 6,000 events, alternating, so that the kernel merges none (it merges a repeat of the
    // last one queued), and fewer than its queue holds (16,384).
    for _ in 0..<3000 { try Self.openAndClose(terminal.slavePath) }
    // Other tests of this process spawn children, and a child holds a copy of every open
    // descriptor until it execs: a close is then reported when the copy goes, after the next
    // open, and the kernel merges the two opens and the two closes (5,996 of 6,000 with a thread
    // spawning /bin/true beside the loop; a full suite once gave 5,998). So what is queued is
    // counted before the reads, once it holds still (a late close of the last open is queued
    // when the child execs; any other merges with the last close queued).
    let eventSize = MemoryLayout<inotify_event>.size
    var queued = try watchers.descriptor.availableBytes() / eventSize
    for _ in 0..<50 {
      usleep(20_000)
      let now = try watchers.descriptor.availableBytes() / eventSize
      if now == queued { break }
      queued = now
    }
    #expect(queued > 4096 && queued <= 6000, "\(queued) events queued")
    let first = Self.events(of: watch, in: watchers.readEvents())
    #expect(first.count == 4096)
    var rest = 0
    while case let more = watchers.readEvents(), !more.isEmpty { rest += more.count }
    // A child holding the last open's copy for over 20 ms adds its close after the count.
    #expect(rest == queued - 4096 || rest == queued - 4096 + 1, "\(rest) of \(queued) queued")
  }

  @Test func aRemovedWatchReportsNothingNotEvenEventsQueuedBeforeItsRemoval() throws {
    let first = try PseudoTerminal.open(baud: 9600)
    let second = try PseudoTerminal.open(baud: 9600)
    var watchers = try DeviceNodeWatchers()
    let firstWatch = try watchers.add(path: first.slavePath)
    let secondWatch = try watchers.add(path: second.slavePath)
    // Queued while the watch was live, read after its removal: dropped.
    try Self.openAndClose(first.slavePath)
    try Self.openAndClose(second.slavePath)
    watchers.remove(firstWatch)
    watchers.remove(firstWatch)
    #expect(watchers.watches == [secondWatch])
    try Self.waitReadable(watchers)
    var events = watchers.readEvents()
    #expect(Self.events(of: firstWatch, in: events).isEmpty)
    #expect(Self.events(of: secondWatch, in: events) == [.opened, .closed])
    // After the removal, the node's events do not even reach the instance.
    try Self.openAndClose(first.slavePath)
    events = watchers.readEvents()
    #expect(events.isEmpty)
  }

  @Test func aNodeThatGoesAwayLeavesTheSet() throws {
    var watchers = try DeviceNodeWatchers()
    let kept = try PseudoTerminal.open(baud: 9600)
    let keptWatch = try watchers.add(path: kept.slavePath)
    do {
      let gone = try PseudoTerminal.open(baud: 9600)
      _ = try watchers.add(path: gone.slavePath)
      #expect(watchers.watches.count == 2)
      _ = consume gone
    }
    // Closing the terminal removes its node: the kernel drops the watch (IN_IGNORED).
    try Self.waitReadable(watchers)
    #expect(watchers.readEvents().isEmpty)
    #expect(watchers.watches == [keptWatch])
  }

  @Test func theHubCallsTheHandlerOfTheWatchWhoseNodeWasOpened() throws {
    let loop = try IOLoop(name: "test-watch-hub")
    let hub = try DeviceNodeWatcherHub(io: loop)
    try loop.start()
    defer {
      hub.close()
      loop.stop()
    }
    let first = try PseudoTerminal.open(baud: 9600)
    let second = try PseudoTerminal.open(baud: 9600)
    let firstWatch = try hub.add(path: first.slavePath)
    let secondWatch = try hub.add(path: second.slavePath)
    let calls = Mutex([0, 0])
    let taken = Mutex<[[DeviceNodeWatcherHub.Event]]>([[], []])
    for (index, watch) in [firstWatch, secondWatch].enumerated() {
      hub.setHandler(of: watch) {
        calls.withLock { $0[index] += 1 }
        let events = hub.readEvents(of: watch)
        taken.withLock { $0[index] += events }
      }
    }
    // The open and the close may reach the loop in one wake-up or in two: one call or two.
    try Self.openAndClose(second.slavePath)
    #expect(Self.wait { taken.withLock { $0[1] } == [.opened, .closed] })
    #expect(calls.withLock { $0[0] } == 0)
    #expect(taken.withLock { $0[0] }.isEmpty)
    // Read on behalf of the first watch (here, or by its handler if the loop came first, or
    // split between the two: the loop may read the open before the close happens, and its
    // handler's share then comes first), the second's events still reach the second.
    try Self.openAndClose(second.slavePath)
    try Self.openAndClose(first.slavePath)
    let firstEvents = hub.readEvents(of: firstWatch)
    #expect(Self.wait { Self.takenOnce([firstEvents, taken.withLock { $0[0] }]) })
    #expect(Self.wait { taken.withLock { $0[1] }.count == 4 })
    // Once removed, a watch's handler is not called again and its node reports nothing.
    let secondCalls = calls.withLock { $0[1] }
    let firstCalls = calls.withLock { $0[0] }
    hub.remove(secondWatch)
    #expect(hub.watchCount == 1)
    try Self.openAndClose(second.slavePath)
    try Self.openAndClose(first.slavePath)
    #expect(Self.wait { calls.withLock { $0[0] } > firstCalls })
    #expect(calls.withLock { $0[1] } == secondCalls)
    #expect(hub.readEvents(of: secondWatch).isEmpty)
  }

  /// Whether the shares of a watch's events its takers got hold one open and one close
  /// between them, each share in the order the node saw them (the takers in any order).
  static func takenOnce(_ shares: [[DeviceNodeWatcherHub.Event]]) -> Bool {
    let inOrder: [[DeviceNodeWatcherHub.Event]] = [[], [.opened], [.closed], [.opened, .closed]]
    let all = shares.flatMap { $0 }
    return shares.allSatisfy(inOrder.contains) && all.count == 2 && Set(all) == [.opened, .closed]
  }

  /// A node's events split between two takers reach each event's taker once: the loop reads
  /// the open (the client still has the node open) and its handler takes it; the owner, asking
  /// while the handler still runs, reads the close itself. (A loaded run read the two in that
  /// order, which the test above once judged in the other.)
  @Test func eventsSplitBetweenTheHandlerAndTheOwnerReachOneTakerEach() throws {
    let loop = try IOLoop(name: "test-watch-split")
    let hub = try DeviceNodeWatcherHub(io: loop)
    try loop.start()
    defer {
      hub.close()
      loop.stop()
    }
    let terminal = try PseudoTerminal.open(baud: 9600)
    let watch = try hub.add(path: terminal.slavePath)
    let taken = Mutex<[DeviceNodeWatcherHub.Event]>([])
    let handlerMayReturn = Atomic<Bool>(false)
    hub.setHandler(of: watch) {
      let events = hub.readEvents(of: watch)
      taken.withLock { $0 += events }
      // Keeps the loop from reading the instance again until the owner has.
      while !handlerMayReturn.load(ordering: .acquiring) { usleep(1000) }
    }
    defer { handlerMayReturn.store(true, ordering: .releasing) }
    let client = try FileDescriptor.open(terminal.slavePath, flags: O_RDONLY | O_NOCTTY)
    #expect(Self.wait { taken.withLock { $0 } == [.opened] })
    client.close()
    // The close is queued when the last copy of the descriptor goes, and a child that another
    // test spawns meanwhile holds one for a moment (helper-110): the owner reads until it comes
    // (the loop cannot read meanwhile, its handler still runs).
    var owners: [DeviceNodeWatcherHub.Event] = []
    _ = Self.wait {
      owners += hub.readEvents(of: watch)
      return !owners.isEmpty
    }
    handlerMayReturn.store(true, ordering: .releasing)
    #expect(owners == [.closed])
    #expect(Self.takenOnce([owners, taken.withLock { $0 }]))
    // Nothing is left for anyone to take again.
    #expect(hub.readEvents(of: watch).isEmpty)
    #expect(taken.withLock { $0 } == [.opened])
  }

  /// A writer's question before an epoch, whether a watch has events unread, says what
  /// `readEvents` would take: from a hub never read yet (which once trapped on the time since
  /// its last read), and for a node added again while its events were unread (the events are
  /// dropped with the old subscriber, found by helper-89).
  @Test func hasUnreadEventsSaysWhatReadEventsWouldTake() throws {
    let loop = try IOLoop(name: "test-watch-unread")
    let hub = try DeviceNodeWatcherHub(io: loop)
    defer { hub.close() }
    let terminal = try PseudoTerminal.open(baud: 9600)
    let watch = try hub.add(path: terminal.slavePath)
    #expect(!hub.hasUnreadEvents(of: watch, freshNanoseconds: 1_000_000_000))
    try Self.openAndClose(terminal.slavePath)
    #expect(Self.wait { hub.hasUnreadEvents(of: watch, freshNanoseconds: 0) })
    #expect(hub.readEvents(of: watch) == [.opened, .closed])
    #expect(!hub.hasUnreadEvents(of: watch, freshNanoseconds: 0))
    try Self.openAndClose(terminal.slavePath)
    #expect(Self.wait { hub.hasUnreadEvents(of: watch, freshNanoseconds: 0) })
    let again = try hub.add(path: terminal.slavePath)
    #expect(again == watch, "inotify gives a node watched already its watch again")
    #expect(!hub.hasUnreadEvents(of: watch, freshNanoseconds: 1_000_000_000))
    #expect(hub.readEvents(of: watch).isEmpty)
  }

  @Test func aWatchDroppedByItsOwnerIsRemovedFromTheHub() throws {
    let loop = try IOLoop(name: "test-watch-drop")
    let hub = try DeviceNodeWatcherHub(io: loop)
    defer { hub.close() }
    let terminal = try PseudoTerminal.open(baud: 9600)
    do {
      let watch = try hub.watch(path: terminal.slavePath)
      try Self.openAndClose(terminal.slavePath)
      #expect(watch.readEvents() == [.opened, .closed])
      #expect(hub.watchCount == 1)
    }
    #expect(hub.watchCount == 0)
  }

  @Test func aClosedHubTakesNoWatch() throws {
    let loop = try IOLoop(name: "test-watch-closed")
    let hub = try DeviceNodeWatcherHub(io: loop)
    let terminal = try PseudoTerminal.open(baud: 9600)
    hub.close()
    hub.close()
    #expect(throws: SystemError.self) { try hub.add(path: terminal.slavePath) }
  }

  static func wait(seconds: Double = 5, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 5000, condition)
  }
}
