import Synchronization
import SystemIO
import Testing

@testable import DeviceTerminal

/// A wait for room on a memory line.
@Suite struct MemoryLineRoomWaitTests {
  /// The writer found the queue full; the client read before the writer asked to wait: the
  /// wait ends at once instead of waiting for a read that may never come.
  @Test func roomMadeBeforeTheWaitIsNotMissed() {
    var settings = TerminalAttributes()
    settings.makeRaw()
    let line = MemoryLine(settings: settings)
    line.setClientRoom(4)
    #expect(line.write([1, 2, 3, 4, 5][...]) == 4)
    #expect(line.write([5][...]) == 0)
    #expect(line.read(upTo: 2) == [1, 2])
    let calls = Atomic<Int>(0)
    let wait = line.waitForRoom { calls.add(1, ordering: .relaxed) }
    #expect(calls.load(ordering: .relaxed) == 1)
    wait.cancel()
    // A wait on a full queue ends with the read that makes room, once.
    #expect(line.write([5, 6, 7][...]) == 2)
    _ = line.waitForRoom { calls.add(1, ordering: .relaxed) }
    #expect(calls.load(ordering: .relaxed) == 1)
    _ = line.read(upTo: 1)
    _ = line.read(upTo: 1)
    #expect(calls.load(ordering: .relaxed) == 2)
  }
}
