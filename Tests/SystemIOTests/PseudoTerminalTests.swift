import Glibc
import SystemIO
import TestFixtures
import Testing

@Suite(.blocking, .serialized) struct PseudoTerminalTests {
  @Test func bytesWrittenToTheMasterReachAClientOfTheSlaveUnchanged() throws {
    let terminal = try PseudoTerminal.open(baud: 4800)
    let client = try FileDescriptor.open(terminal.slavePath, flags: O_RDWR | O_NOCTTY)
    let line = Array("$GPZDA,1*55\r\n".utf8)
    #expect(try terminal.master.write(line[...]) == .transferred(line.count))
    var buffer = [UInt8](repeating: 0, count: 64)
    let ready = try Poll.wait([client.pollRequest(.readable)], timeoutMilliseconds: 2000)
    #expect(ready == [.readable])
    guard case .transferred(let count) = try client.read(into: &buffer) else {
      Issue.record("nothing to read")
      return
    }
    // Raw mode: CR LF arrive as sent, not translated.
    #expect(Array(buffer.prefix(count)) == line)
    let settings = try terminal.lineSettings()
    #expect(!settings.echoes)
    #expect(!settings.isCanonical)
    #expect(settings.baud == 4800)
  }

  /// The system's cap and count of pseudo-terminals, which a fleet checks before it opens
  /// any: one more is counted while this test holds one open.
  @Test func theLimitCountsTheTerminalsOpen() throws {
    let before = try #require(PseudoTerminalLimit.current())
    #expect(before.maximum >= 1)
    let terminal = try PseudoTerminal.open(baud: 9600)
    let during = try #require(PseudoTerminalLimit.current())
    #expect(during.maximum == before.maximum)
    // Other tests open and close terminals beside this one: at least this one is counted.
    #expect(during.inUse >= 1)
    #expect(during.inUse <= during.maximum)
    _ = terminal
  }

  @Test func unreadBytesAreCountedAndCanBeDiscarded() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    _ = try terminal.master.write(Array(repeating: UInt8(ascii: "x"), count: 100)[...])
    var waited = 0
    while terminal.unreadByteCount() < 100 && waited < 200 {
      usleep(5000)
      waited += 1
    }
    let before = terminal.unreadByteCount()
    #expect(before == 100)
    terminal.discardUnread()
    let after = terminal.unreadByteCount()
    #expect(after == 0)
  }

  @Test(.enabled(if: geteuid() == 0, "only root may give the node to a group it is not in"))
  func theSlaveGetsTheGroupAndModeOfASerialPort() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let dialout = try #require(Groups.groupID(named: "dialout"))
    try terminal.setPermissions(groupID: dialout, mode: 0o660)
    var info = stat()
    #expect(stat(terminal.slavePath, &info) == 0)
    #expect(info.st_gid == dialout)
    #expect(info.st_mode & 0o777 == 0o660)
  }

  @Test func theWatcherReportsEachOpenAndClose() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let watcher = try DeviceNodeWatcher(path: terminal.slavePath)
    for _ in 0..<3 {
      let client = try FileDescriptor.open(terminal.slavePath, flags: O_RDONLY | O_NOCTTY)
      client.close()
    }
    _ = try Poll.wait([watcher.descriptor.pollRequest(.readable)], timeoutMilliseconds: 1000)
    #expect(watcher.readEvents() == [.opened, .closed, .opened, .closed, .opened, .closed])
  }

  @Test func theTerminalItselfSaysWhetherAnyClientHasItOpen() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let hasNone = terminal.hasClients
    #expect(!hasNone)
    let first = try FileDescriptor.open(terminal.slavePath, flags: O_RDWR | O_NOCTTY)
    let second = try FileDescriptor.open(terminal.slavePath, flags: O_RDWR | O_NOCTTY)
    let has1 = terminal.hasClients
    #expect(has1)
    first.close()
    // Two opens arrive as one inotify event; the terminal still knows the second is there.
    let has2 = terminal.hasClients
    #expect(has2)
    second.close()
    let has3 = terminal.hasClients
    #expect(!has3)
  }

  @Test func countingAndDiscardingLeaveNoClientBehind() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    _ = try terminal.master.write(Array("$GPGGA\r\n".utf8)[...])
    // The kernel moves written bytes to the slave's queue a moment later.
    for _ in 0..<200 where terminal.unreadByteCount() < 8 { usleep(5000) }
    let unread = terminal.unreadByteCount()
    #expect(unread == 8)
    terminal.discardUnread()
    let has4 = terminal.hasClients
    #expect(!has4)
  }

  @Test func resettingUndoesAClientsEcho() throws {
    let terminal = try PseudoTerminal.open(baud: 9600)
    let client = try FileDescriptor.open(terminal.slavePath, flags: O_RDWR | O_NOCTTY)
    var settings = try TerminalAttributes.read(from: client)
    settings.raw.c_lflag |= tcflag_t(ECHO | ICANON)
    try settings.apply(to: client)
    let echoesBefore = try terminal.lineSettings().echoes
    #expect(echoesBefore)
    try terminal.resetLineSettings(baud: 9600)
    let echoesAfter = try terminal.lineSettings().echoes
    #expect(!echoesAfter)
  }
}

@Suite(.blocking) struct TerminalAttributesTests {
  @Test func makeRawClearsEchoAndLineEditingOnAPlainValue() {
    var settings = TerminalAttributes()
    settings.raw.c_lflag = tcflag_t(ECHO | ICANON | ISIG)
    settings.makeRaw()
    settings.setSpeed(baud: 115_200)
    #expect(!settings.echoes)
    #expect(!settings.isCanonical)
    #expect(settings.baud == 115_200)
    #expect(settings.raw.c_cflag & tcflag_t(CREAD) != 0)
  }

  @Test func groupsResolveByNameAndNumber() {
    #expect(Groups.groupID(named: "root") == 0)
    #expect(Groups.groupID(named: "20") == 20)
    #expect(Groups.groupID(named: "no-such-group-here") == nil)
    // A sign, or chown's "no change", is not a group number.
    #expect(Groups.groupID(named: "+20") == nil)
    #expect(Groups.groupID(named: "4294967295") == nil)
    #expect(Groups.groupID(named: "4294967296") == nil)
  }
}
