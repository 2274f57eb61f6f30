import Glibc
import Synchronization
import TestFixtures
import Testing

@testable import SystemIO

@Suite(.blocking) struct StoppableThreadTests {
  /// What each descriptor this process has open now is (`pipe:[inode]`, a path…).
  static func openDescriptorTargets() -> [String] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    var targets: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let descriptor = Int32(name) { targets.append(target(of: descriptor)) }
    }
    return targets
  }

  /// What descriptor `descriptor` of this process is, as /proc/self/fd shows it.
  static func target(of descriptor: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
    return count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
  }

  /// A thread started from a thread at SCHED_FIFO runs at the ordinary priority: a route load
  /// or the chip-state writer started from a real-time thread must not hold a CPU at real time.
  @Test(.enabled(if: getuid() == 0)) func aNewThreadRunsAtTheOrdinaryPriorityWhateverItsCreators()
    throws
  {
    let policies = Mutex<(creator: Int32, created: Int32)>((-1, -1))
    let creator = try SystemThread.start(name: "creator") {
      SystemThread.raisePriorityIfAllowed()
      let creatorPolicy = sched_getscheduler(0)
      guard
        let created = try? SystemThread.start(
          name: "created", { policies.withLock { $0.created = sched_getscheduler(0) } })
      else { return }
      SystemThread.join(created)
      policies.withLock { $0.creator = creatorPolicy }
    }
    SystemThread.join(creator)
    let seen = policies.withLock { $0 }
    #expect(seen.creator == SCHED_FIFO)
    #expect(seen.created == SCHED_OTHER)
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

  /// A thread stopped and released closes its wake pipe (and its timer, owned the same way):
  /// the pipes are told by their inodes, which the kernel does not hand out again soon, not
  /// by counting the process's descriptors, which the tests running alongside change (a
  /// loaded run counted 156 of theirs).
  @Test func threadsLeaveNoDescriptorsBehind() throws {
    var pipes: [String] = []
    for _ in 0..<50 {
      let thread = try StoppableThread(name: "test-fds")
      pipes.append(Self.target(of: thread.wakePipe.readEnd.rawValue))
      try thread.start { _ = thread.sleep(untilMonotonicNanoseconds: Int64.max / 2) }
      thread.stop()
    }
    let stillOpen = Set(Self.openDescriptorTargets()).intersection(pipes)
    #expect(pipes.allSatisfy { $0.hasPrefix("pipe:[") })
    #expect(Set(pipes).count == 50)
    #expect(stillOpen.isEmpty)
  }

  @Test func descriptorsAreOpenedCloseOnExec() throws {
    let pipe = try WakePipe()
    for descriptor in [pipe.readEnd.rawValue, pipe.writeEnd.rawValue] {
      #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }
  }
}
