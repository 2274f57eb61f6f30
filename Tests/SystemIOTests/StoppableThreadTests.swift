import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

@Suite(.blocking) struct StoppableThreadTests {
  /// Descriptors this process has open now.
  static func openDescriptorCount() -> Int {
    var count = 0
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    while readdir(directory) != nil { count += 1 }
    closedir(directory)
    return count
  }

  @Test func stopEndsASleepAtOnceAndJoinsTheThread() throws {
    let thread = try StoppableThread(name: "test-loop")
    let sleeping = Atomic<Bool>(false)
    let ended = Atomic<Bool>(false)
    try thread.start {
      sleeping.store(true, ordering: .releasing)
      // A minute away: only stop() can end this sleep within the test.
      let wake = thread.sleep(
        untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 60_000_000_000)
      ended.store(wake == .stopped, ordering: .releasing)
    }
    for _ in 0..<2000 where !sleeping.load(ordering: .acquiring) { usleep(1000) }
    thread.stop()
    // stop() returned: the thread has been joined, so what it stored is there.
    let hasEnded = ended.load(ordering: .acquiring)
    #expect(hasEnded)
  }

  @Test func wakeEndsASleepEarlyWithoutStopping() throws {
    let thread = try StoppableThread(name: "test-wake")
    let result = Mutex<StoppableThread.Wake?>(nil)
    try thread.start {
      let wake = thread.sleep(
        untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 60_000_000_000)
      result.withLock { $0 = wake }
    }
    for _ in 0..<2000 where result.withLock({ $0 == nil }) {
      thread.wake()
      usleep(1000)
    }
    thread.stop()
    #expect(result.withLock { $0 } == .woken)
  }

  @Test func aSleepEndsAtItsDeadline() throws {
    let thread = try StoppableThread(name: "test-deadline")
    let deadline = SystemClock.monotonicNanoseconds() + 20_000_000
    let woke = Atomic<Int64>(0)
    let reason = Mutex<StoppableThread.Wake?>(nil)
    try thread.start {
      let wake = thread.sleep(untilMonotonicNanoseconds: deadline)
      woke.store(SystemClock.monotonicNanoseconds(), ordering: .releasing)
      reason.withLock { $0 = wake }
    }
    for _ in 0..<2000 where woke.load(ordering: .acquiring) == 0 { usleep(1000) }
    thread.stop()
    #expect(reason.withLock { $0 } == .deadline)
    let wokeAt = woke.load(ordering: .acquiring)
    #expect(wokeAt >= deadline)
  }

  @Test func stopMayBeCalledAgainAndFromManyThreads() throws {
    let thread = try StoppableThread(name: "test-twice")
    try thread.start {
      while thread.sleep(untilMonotonicNanoseconds: Int64.max / 2) != .stopped {}
    }
    let stoppers = (0..<4).map { _ in
      try? SystemThread.start(name: "stopper") { thread.stop() }
    }
    for stopper in stoppers.compactMap({ $0 }) { SystemThread.join(stopper) }
    thread.stop()
    #expect(!thread.shouldRun)
  }

  @Test func aThreadThatNeverStartedStopsAndNeverStartsAfterwards() throws {
    let thread = try StoppableThread(name: "never")
    thread.stop()
    let ran = Atomic<Bool>(false)
    try thread.start { ran.store(true, ordering: .releasing) }
    usleep(20_000)
    let hasRun = ran.load(ordering: .acquiring)
    #expect(!hasRun)
  }

  @Test func threadsLeaveNoDescriptorsBehind() throws {
    let before = Self.openDescriptorCount()
    for _ in 0..<50 {
      let thread = try StoppableThread(name: "test-fds")
      try thread.start { _ = thread.sleep(untilMonotonicNanoseconds: Int64.max / 2) }
      thread.stop()
    }
    // Two descriptors a round would be 100; other tests running beside this one hold a few.
    #expect(Self.openDescriptorCount() - before < 20)
  }

  @Test func descriptorsAreOpenedCloseOnExec() throws {
    let pipe = try WakePipe()
    for descriptor in [pipe.readEnd.rawValue, pipe.writeEnd.rawValue] {
      #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }
  }
}
