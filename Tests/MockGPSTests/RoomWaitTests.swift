import Glibc
import MockGPSTestSupport
import Synchronization
import SystemIO
import TestFixtures
import Testing

@testable import DeviceTerminal
@testable import MockGPS

/// `RoomWait` against a descriptor that is writable at once, so that the I/O thread's handler
/// races `init` for the registration: however the race goes, the wait ends with its duplicate
/// out of epoll. A duplicate closed while still registered leaves epoll an entry it can no
/// longer remove (the open file lives on in the original), reported writable at every
/// `epoll_wait` without end: the I/O thread spins, and a later duplicate of the same number
/// cannot be registered (EEXIST).
@Suite(.blocking, .serialized) struct RoomWaitTests {
  /// The descriptors an epoll instance watches, by number, as the kernel lists them (`tfd:`
  /// lines of /proc/self/fdinfo).
  static func watched(epoll descriptor: Int32) -> [Int32] {
    guard let file = fopen("/proc/self/fdinfo/\(descriptor)", "r") else { return [] }
    defer { fclose(file) }
    var found: [Int32] = []
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, Int32(line.count), file) != nil {
      var number: Int32 = 0
      if withVaList(
        [withUnsafeMutablePointer(to: &number) { $0 }], { vsscanf(line, "tfd: %d", $0) })
        == 1
      {
        found.append(number)
      }
    }
    return found
  }

  /// The epoll instances open in this process.
  static func epollDescriptors() -> Set<Int32> {
    var found = Set<Int32>()
    guard let directory = opendir("/proc/self/fd") else { return found }
    defer { closedir(directory) }
    var target = [CChar](repeating: 0, count: 256)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let descriptor = Int32(name) else { continue }
      let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
      guard length > 0 else { continue }
      let text = String(
        decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text == "anon_inode:[eventpoll]" { found.insert(descriptor) }
    }
    return found
  }

  @Test func aWaitThatEndsAtOnceLeavesNothingInEpoll() throws {
    let io = try IOLoop(name: "roomwait-test")
    try io.start()
    defer { io.stop() }
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    // The loop's epoll instance is the one that watches this read end (its number is ours).
    let marker = try io.add(descriptor: ends[0], events: .readable) { _ in }
    defer { io.remove(marker) }
    let epoll = try #require(
      Self.epollDescriptors().first { Self.watched(epoll: $0).contains(ends[0]) })
    let before = Self.watched(epoll: epoll).count
    let woken = Atomic<Int>(0)
    var refused = 0
    for _ in 0..<2000 {
      let wait = RoomWait(io: io, masterDescriptor: ends[1]) { woken.add(1, ordering: .relaxed) }
      if wait == nil { refused += 1 }
      wait?.cancel()
    }
    #expect(refused == 0, "a duplicate could not be registered: a stale one holds its number")
    #expect(
      Eventually.holds(within: 5) { Self.watched(epoll: epoll).count == before },
      "epoll still watches closed duplicates: \(Self.watched(epoll: epoll))")
  }
}

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
