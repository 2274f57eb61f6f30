import DeviceRuntime
import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// The scheduler's waits for a descriptor to become writable (`DeadlineScheduler.whenWritable`,
/// how a write that found its client's queue full waits for room): woken on the scheduler's
/// thread once the reader makes room, never after a cancel, each duplicate closed by the
/// thread that polls it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct DescriptorWatchesTests {
  /// A pipe whose write end is full: a watch on it waits until its read end is read.
  final class FullPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      (readEnd, writeEnd) = (ends[0], ends[1])
      for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
      let block = [UInt8](repeating: 0x24, count: 4096)
      while write(writeEnd, block, block.count) > 0 {}
    }

    /// Reads what the pipe holds: its write end has room again.
    func drain() {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
      close(readEnd)
      close(writeEnd)
    }
  }

  /// How many descriptors of this process are ends of the same pipe as `descriptor` (other
  /// tests open and close descriptors meanwhile: they are not counted).
  static func endsOfPipe(of descriptor: Int32) -> Int {
    OwnProcess.link(of: descriptor).map(OwnProcess.descriptors(linkingTo:)) ?? 0
  }

  /// A scheduler with its thread running (the test stops it).
  static func startedScheduler() throws -> DeadlineScheduler {
    let scheduler = try DeadlineScheduler(name: "watch-test", manual: false)
    try scheduler.start()
    return scheduler
  }

  @Test func aWatchWakesOnTheSchedulersThreadOnceTheReaderMakesRoom() throws {
    let scheduler = try Self.startedScheduler()
    defer { scheduler.stop() }
    let pipe = try FullPipe()
    let calls = Atomic<Int>(0)
    let schedulersThread = Atomic<UInt>(0)
    let readyThread = Atomic<UInt>(0)
    _ = scheduler.add(at: 0) { _ in
      schedulersThread.store(SystemThread.currentID, ordering: .relaxed)
      return nil
    }
    _ = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {
      readyThread.store(SystemThread.currentID, ordering: .relaxed)
      calls.add(1, ordering: .relaxed)
    }
    usleep(50_000)
    #expect(calls.load(ordering: .relaxed) == 0, "woken while the pipe was full")
    pipe.drain()
    #expect(Eventually.holds(within: 5) { calls.load(ordering: .relaxed) == 1 })
    usleep(50_000)
    #expect(calls.load(ordering: .relaxed) == 1, "woken more than once")
    let (ready, scheduling) = (
      readyThread.load(ordering: .relaxed), schedulersThread.load(ordering: .relaxed)
    )
    #expect(ready == scheduling && ready != 0)
  }

  @Test func aCancelledWatchNeverWakesAndItsDuplicateIsClosed() throws {
    let scheduler = try Self.startedScheduler()
    defer { scheduler.stop() }
    let pipe = try FullPipe()
    let calls = Atomic<Int>(0)
    for _ in 0..<500 {
      let id = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {
        calls.add(1, ordering: .relaxed)
      }
      scheduler.cancel(id)
    }
    pipe.drain()
    // The thread closes the duplicates at its next look; a wake-up makes it look.
    _ = scheduler.add(at: 0) { _ in nil }
    // Its two ends, and no duplicate.
    #expect(
      Eventually.holds(within: 5) { Self.endsOfPipe(of: pipe.readEnd) == 2 },
      "\(Self.endsOfPipe(of: pipe.readEnd) - 2) duplicates left open")
    usleep(50_000)
    #expect(calls.load(ordering: .relaxed) == 0)
  }

  /// A step's wait cancelled from another thread (a device stopped while its replay waited for
  /// room) closes its duplicate at once, without waiting for the thread's next deadline: the
  /// duplicate keeps the master open, and with it the client's terminal, which sees no hang-up.
  @Test func aWatchCancelledFromAnotherThreadClosesItsDuplicateAtOnce() throws {
    let scheduler = try Self.startedScheduler()
    defer { scheduler.stop() }
    // The thread's next deadline is a minute away: only the cancel can make it look sooner.
    _ = scheduler.add(at: SystemClock.monotonicNanoseconds() + 60_000_000_000) { _ in nil }
    let pipe = try FullPipe()
    let id = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {}
    #expect(Self.endsOfPipe(of: pipe.readEnd) == 3)
    // Time for the thread to take the watch into its sleep (a cancel before that is closed by
    // the look the watch's own wake-up makes, and proves nothing).
    usleep(100_000)
    scheduler.cancel(id)
    #expect(
      Eventually.holds(within: 5) { Self.endsOfPipe(of: pipe.readEnd) == 2 },
      "the duplicate is still open")
  }

  /// A stopped scheduler closes the duplicates of the waits left.
  @Test func aStoppedSchedulerClosesTheDuplicatesOfItsWaits() throws {
    let scheduler = try Self.startedScheduler()
    let pipe = try FullPipe()
    _ = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {}
    let cancelled = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {}
    scheduler.stop()
    scheduler.cancel(cancelled)
    #expect(Self.endsOfPipe(of: pipe.readEnd) == 2)
  }

  /// A manual scheduler (a test's) has no thread: its `runDue()` looks at the watches.
  @Test func aManualSchedulerLooksAtItsWatchesWhenItRuns() throws {
    let scheduler = try DeadlineScheduler(name: "watch-test", manual: true) { 0 }
    let pipe = try FullPipe()
    let calls = Atomic<Int>(0)
    _ = scheduler.whenWritable(try FileDescriptor.duplicate(pipe.writeEnd)) {
      calls.add(1, ordering: .relaxed)
    }
    scheduler.runDue()
    #expect(calls.load(ordering: .relaxed) == 0)
    pipe.drain()
    scheduler.runDue()
    scheduler.runDue()
    #expect(calls.load(ordering: .relaxed) == 1)
  }
}
