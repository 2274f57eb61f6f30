import DeviceRuntime
import Glibc
import MockGPSTestSupport
import Synchronization
import SystemIO
import TestFixtures
import Testing

@testable import MockGPS

/// The one thread that runs every device's epoch steps.
@Suite(.blocking, .timeLimit(.minutes(10))) struct DeadlineSchedulerTests {
  static let millisecond: Int64 = 1_000_000

  /// Waits (bounded) until `condition` holds.
  private func eventually(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 1_000, condition)
  }

  @Test func manualStepsRunInTheOrderOfTheirDeadlinesAndAgainWhenTheyAsk() throws {
    let now = Atomic<Int64>(0)
    let scheduler = try DeadlineScheduler(
      name: "test", manual: true, monotonicNanoseconds: { now.load(ordering: .relaxed) })
    let ran = Mutex<[String]>([])
    _ = scheduler.add(at: 30) { time in
      ran.withLock { $0.append("c@\(time)") }
      return nil
    }
    _ = scheduler.add(at: 10) { time in
      ran.withLock { $0.append("a@\(time)") }
      return time + 15
    }
    _ = scheduler.add(at: 20) { time in
      ran.withLock { $0.append("b@\(time)") }
      return nil
    }
    #expect(scheduler.runDue() == 0)
    now.store(20, ordering: .relaxed)
    #expect(scheduler.runDue() == 2)
    #expect(scheduler.nextDeadline == 30)
    now.store(40, ordering: .relaxed)
    #expect(scheduler.runDue() == 2)
    #expect(ran.withLock { $0 } == ["a@20", "b@20", "c@40", "a@40"])
    #expect(scheduler.taskCount == 1 && scheduler.nextDeadline == 55)
  }

  /// Whether this process may run a thread at real-time priority (root, `CAP_SYS_NICE`).
  private static func realTimeIsAllowed() throws -> Bool {
    let allowed = Atomic<Bool>(false)
    let thread = try SystemThread.start(name: "rt-probe") {
      allowed.store(SystemThread.raisePriorityIfAllowed(), ordering: .relaxed)
    }
    SystemThread.join(thread)
    return allowed.load(ordering: .relaxed)
  }

  /// The thread runs at the ordinary priority while every task keeps no time (an unpaced
  /// replay's), at real time (where allowed) while one does: added, it raises the priority for
  /// the others' steps too; removed, it lets it drop again.
  @Test func theThreadRunsAtRealTimeWhileATaskKeepsATime() throws {
    let allowed = try Self.realTimeIsAllowed()
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let policies = Mutex<[Bool]>([])
    let untimed = scheduler.add(at: SystemClock.monotonicNanoseconds(), keepsTime: false) { _ in
      policies.withLock { $0.append(SystemThread.runsAtRealTimePriority) }
      return Int64.max  // waits for a wake, as a write waits for room
    }
    #expect(eventually { policies.withLock { $0.count } == 1 })
    let timed = scheduler.add(at: SystemClock.monotonicNanoseconds() + 60_000 * Self.millisecond) {
      _ in nil
    }
    scheduler.wake(untimed)
    #expect(eventually { policies.withLock { $0.count } == 2 })
    scheduler.remove(timed)
    scheduler.wake(untimed)
    #expect(eventually { policies.withLock { $0.count } == 3 })
    // A timed task that ends (its step returns nil) lets it drop too.
    let ended = Atomic<Bool>(false)
    _ = scheduler.add(at: SystemClock.monotonicNanoseconds()) { _ in
      ended.store(true, ordering: .relaxed)
      return nil
    }
    #expect(eventually { ended.load(ordering: .relaxed) })
    scheduler.wake(untimed)
    #expect(eventually { policies.withLock { $0.count } == 4 })
    #expect(
      policies.withLock { $0 }
        == (allowed ? [false, true, false, false] : [false, false, false, false]))
  }

  /// A timed task added while an untimed one is due again at once (an unpaced replay without a
  /// client: the thread's round never ends) runs at real time (where allowed): the priority is
  /// set before each step, not only before each round (helper-113's review: a live device of a
  /// config after such a replay ran at the ordinary priority throughout).
  @Test func aTimedTaskRunsAtRealTimeInARoundThatNeverEnds() throws {
    let allowed = try Self.realTimeIsAllowed()
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let untimedRuns = Atomic<Int>(0)
    let untimed = scheduler.add(at: SystemClock.monotonicNanoseconds(), keepsTime: false) { now in
      untimedRuns.add(1, ordering: .relaxed)
      return now
    }
    defer { scheduler.remove(untimed) }
    #expect(eventually { untimedRuns.load(ordering: .relaxed) > 100 })
    let timedPolicy = Mutex<Bool?>(nil)
    _ = scheduler.add(at: SystemClock.monotonicNanoseconds()) { _ in
      timedPolicy.withLock { $0 = SystemThread.runsAtRealTimePriority }
      return nil
    }
    #expect(eventually { timedPolicy.withLock { $0 } != nil })
    #expect(timedPolicy.withLock { $0 } == allowed)
  }

  @Test func aTaskAddedEarlierThanTheOneSleptForWakesTheThread() throws {
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let later = SystemClock.monotonicNanoseconds() + 60_000 * Self.millisecond
    _ = scheduler.add(at: later) { _ in nil }
    usleep(20_000)  // The thread now sleeps until a minute from now.
    let ran = Atomic<Bool>(false)
    _ = scheduler.add(at: SystemClock.monotonicNanoseconds() + Self.millisecond) { _ in
      ran.store(true, ordering: .relaxed)
      return nil
    }
    #expect(eventually { ran.load(ordering: .relaxed) })
  }

  @Test func wakingATaskRunsItAtOnce() throws {
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let runs = Atomic<Int>(0)
    let id = scheduler.add(at: SystemClock.monotonicNanoseconds()) { now in
      runs.add(1, ordering: .relaxed)
      return now + 60_000 * Self.millisecond
    }
    #expect(eventually { runs.load(ordering: .relaxed) == 1 })
    scheduler.wake(id)
    #expect(eventually { runs.load(ordering: .relaxed) == 2 })
  }

  @Test func aRemovedTaskNeverRunsAgain() throws {
    let now = Atomic<Int64>(0)
    let scheduler = try DeadlineScheduler(
      name: "test", manual: true, monotonicNanoseconds: { now.load(ordering: .relaxed) })
    let runs = Atomic<Int>(0)
    let id = scheduler.add(at: 0) { time in
      runs.add(1, ordering: .relaxed)
      return time + 10
    }
    #expect(scheduler.runDue() == 1)
    scheduler.remove(id)
    scheduler.wake(id)
    now.store(1_000, ordering: .relaxed)
    #expect(scheduler.runDue() == 0)
    #expect(runs.load(ordering: .relaxed) == 1 && scheduler.taskCount == 0)
  }

  /// `remove` returns only once a step in progress has returned; stopping from another thread
  /// while steps keep running returns promptly.
  @Test func removingFromAnotherThreadWaitsForTheStepInProgress() throws {
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let inStep = Atomic<Bool>(false)
    let runsAfterRemoval = Atomic<Int>(0)
    let removed = Atomic<Bool>(false)
    let id = scheduler.add(at: SystemClock.monotonicNanoseconds()) { now in
      if removed.load(ordering: .acquiring) { runsAfterRemoval.add(1, ordering: .relaxed) }
      inStep.store(true, ordering: .releasing)
      usleep(2_000)
      inStep.store(false, ordering: .releasing)
      return now
    }
    let busy = scheduler.add(at: SystemClock.monotonicNanoseconds()) { now in now + 100_000 }
    #expect(eventually { inStep.load(ordering: .acquiring) })
    scheduler.remove(id)
    let stepStillRunning = inStep.load(ordering: .acquiring)
    #expect(!stepStillRunning)
    removed.store(true, ordering: .releasing)
    usleep(20_000)
    #expect(runsAfterRemoval.load(ordering: .relaxed) == 0)
    scheduler.remove(busy)
    let stopping = SystemClock.monotonicNanoseconds()
    scheduler.stop()
    #expect(SystemClock.monotonicNanoseconds() - stopping < 2_000 * Self.millisecond)
  }

  @Test func aStepMayRemoveItsOwnTask() throws {
    let now = Atomic<Int64>(0)
    let scheduler = try DeadlineScheduler(
      name: "test", manual: true, monotonicNanoseconds: { now.load(ordering: .relaxed) })
    let id = Mutex<DeadlineScheduler.TaskID?>(nil)
    let added = scheduler.add(at: 0) { time in
      if let own = id.withLock({ $0 }) { scheduler.remove(own) }
      return time + 10
    }
    id.withLock { $0 = added }
    #expect(scheduler.runDue() == 1)
    #expect(scheduler.taskCount == 0)
  }
}
