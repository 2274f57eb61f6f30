import Glibc
import SystemIO
import Testing

@testable import DeviceTerminal

/// A client that opens the device while the I/O thread looks at the line, right after the
/// look asked the terminal: the look must not take the client's open for its own. A clean
/// clone's CI once saw a replay waiting for its first client start a second late (the idle
/// recheck's), the open having been read and dropped with what the emulator did itself.
@Suite(.blocking, .serialized) struct DeviceLineLookTests {
  /// Runs `body` with a line on a new pseudo-terminal (its node watched through a hub of its
  /// own), the raw settings it goes back to, and a function that opens the slave by its path
  /// as a client does.
  static func withLine(
    _ body: (inout DeviceLine, TerminalAttributes, @escaping () -> Int32) throws -> Void
  ) throws {
    let loop = try IOLoop(name: "test-line-look")
    let hub = try DeviceNodeWatcherHub(io: loop)
    defer {
      hub.close()
      loop.stop()
    }
    let terminal = try PseudoTerminal.open(baud: 9600)
    let path = terminal.slavePath
    let raw = try terminal.lineSettings()
    var line = DeviceLine(terminal: terminal, watcher: try hub.watch(path: path))
    try body(&line, raw) { open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
  }

  @Test func anOpenRightAfterALookWithoutClientsAskedIsLeftForTheNextLook() throws {
    try Self.withLine { line, raw, openClient in
      _ = line.look(always: true, raw: raw)
      var client: Int32 = -1
      let missed = line.look(always: true, raw: raw) { client = openClient() }
      defer { close(client) }
      // The node's report of the open is still there: a look for events alone sees the client.
      let seen = line.look(always: false, raw: raw)
      let hasClients = line.hasClients
      #expect(client >= 0)
      #expect(missed == .none)
      #expect(seen == .arrived)
      #expect(hasClients)
    }
  }

  /// The last client closes right after a look that found it asked the terminal, before the
  /// look opens its keeper again: the look must not drop that close with its own open, or the
  /// keeper hides the hang-up and the device says it has clients until the next open or
  /// close. It says to look again, and that look finds the line left.
  @Test func aCloseRightAfterALookWithClientsAskedIsLookedAtAgain() throws {
    try Self.withLine { line, raw, openClient in
      let first = openClient()
      let second = openClient()
      let arrived = line.look(always: false, raw: raw)
      close(second)
      let change = line.look(always: false, raw: raw) { close(first) }
      let again = line.closedSinceAsking
      let next = line.look(always: true, raw: raw)
      let hasClients = line.hasClients
      #expect(first >= 0 && second >= 0)
      #expect(arrived == .arrived)
      #expect(change == .none)
      #expect(again)
      #expect(next == .left)
      #expect(!hasClients)
    }
  }

  @Test func anOpenWhileTheLastClientsCloseIsLookedAtIsAnOpenInProgress() throws {
    try Self.withLine { line, raw, openClient in
      let first = openClient()
      let arrived = line.look(always: false, raw: raw)
      close(first)
      var second: Int32 = -1
      let change = line.look(always: false, raw: raw) { second = openClient() }
      defer { close(second) }
      // The look dropped the emulator's own close and open of the slave, and the second
      // client's open with them: it says the open is in progress, so that it looks again now.
      let inProgress = line.openNotYetCounted
      let next = line.look(always: true, raw: raw)
      #expect(arrived == .arrived)
      #expect(second >= 0)
      #expect(change == .left)
      #expect(inProgress)
      #expect(next == .arrived)
    }
  }
}
