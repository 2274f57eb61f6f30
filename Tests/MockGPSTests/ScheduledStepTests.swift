import DeviceRuntime
import Glibc
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// A loop's place on the scheduler, and the state only its steps touch: it reaches the `stop`
/// that ends them once no step runs, whoever stops it.
@Suite(.blocking, .timeLimit(.minutes(10))) struct ScheduledStepTests {
  /// What a test's steps leave behind.
  struct Trace {
    var ran: [Int64] = []
    var stepsEntered = 0
    var stepsCompleted = 0
  }

  /// A scheduler that runs steps when the test says, at the time it sets.
  final class ManualTime: Sendable {
    private final class Now: Sendable {
      let nanoseconds = Atomic<Int64>(0)
    }
    private let now = Now()
    let scheduler: DeadlineScheduler

    init() throws {
      let now = self.now
      scheduler = try DeadlineScheduler(name: "test", manual: true) {
        now.nanoseconds.load(ordering: .relaxed)
      }
    }

    /// Moves to `time` and runs the steps due; returns how many ran.
    @discardableResult func run(at time: Int64) -> Int {
      now.nanoseconds.store(time, ordering: .relaxed)
      return scheduler.runDue()
    }
  }

  @Test func theStateTheStepsCarryReachesTheStopThatEndsThemOnce() throws {
    let time = try ManualTime()
    let scheduler = time.scheduler
    let scheduled = ScheduledStep(on: scheduler, state: Trace())
    scheduled.start(at: 0) { trace, now in
      trace.ran.append(now)
      return now + 10
    }
    for instant: Int64 in [0, 10, 20] { #expect(time.run(at: instant) == 1) }
    let ended = Mutex<[Trace]>([])
    scheduled.stop { trace in ended.withLock { $0.append(trace) } }
    scheduled.stop { trace in ended.withLock { $0.append(trace) } }
    #expect(time.run(at: 30) == 0)
    #expect(ended.withLock { $0.map(\.ran) } == [[0, 10, 20]])
  }

  @Test func aStopFromTheStepItselfEndsTheStateWhenTheStepReturns() throws {
    let time = try ManualTime()
    let scheduler = time.scheduler
    let scheduled = Mutex<ScheduledStep<Trace>?>(nil)
    let ended = Mutex<[Trace]>([])
    let step = ScheduledStep(on: scheduler, state: Trace())
    scheduled.withLock { $0 = step }
    step.start(at: 0) { trace, now in
      trace.ran.append(now)
      if now == 10 {
        scheduled.withLock { $0 }?.stop { trace in ended.withLock { $0.append(trace) } }
        // Still the step's: the stop left the state to it.
        trace.ran.append(-1)
      }
      return now + 10
    }
    for instant: Int64 in [0, 10, 20] { time.run(at: instant) }
    #expect(ended.withLock { $0.map(\.ran) } == [[0, 10, -1]])
    #expect(scheduler.taskCount == 0)
  }

  @Test func aStopBeforeTheStartEndsTheStateAndNoStepRuns() throws {
    let time = try ManualTime()
    let scheduler = time.scheduler
    let scheduled = ScheduledStep(on: scheduler, state: Trace(ran: [7]))
    let ended = Mutex<[Trace]>([])
    scheduled.stop { trace in ended.withLock { $0.append(trace) } }
    scheduled.start(at: 0) { trace, now in
      trace.ran.append(now)
      return nil
    }
    #expect(time.run(at: 0) == 0)
    #expect(ended.withLock { $0.map(\.ran) } == [[7]])
  }

  /// The kernel decides when the scheduler's thread runs: a real thread, a step that takes
  /// 5 ms, and a stop from the test's thread while it runs.
  @Test func aStopFromAnotherThreadEndsTheStateOnlyAfterTheStepInProgress() throws {
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let inStep = Atomic<Bool>(false)
    let scheduled = ScheduledStep(on: scheduler, state: Trace())
    scheduled.start(at: SystemClock.monotonicNanoseconds()) { trace, now in
      trace.stepsEntered += 1
      inStep.store(true, ordering: .releasing)
      usleep(5_000)
      trace.stepsCompleted += 1
      inStep.store(false, ordering: .releasing)
      return now
    }
    let entered = Eventually.holds(within: 5, intervalMicroseconds: 100) {
      inStep.load(ordering: .acquiring)
    }
    try #require(entered)
    let ended = Mutex<[Trace]>([])
    scheduled.stop { trace in ended.withLock { $0.append(trace) } }
    let seen = try #require(ended.withLock { $0 }.first)
    #expect(seen.stepsEntered >= 1)
    #expect(seen.stepsCompleted == seen.stepsEntered)
    let stepStillRunning = inStep.load(ordering: .acquiring)
    #expect(!stepStillRunning)
  }

  /// A stop from another thread while the step, having stopped itself, still runs: it returns
  /// only once the step has returned and the state is ended.
  @Test func aLaterStopWaitsUntilTheStateIsEnded() throws {
    let scheduler = try DeadlineScheduler(name: "test", manual: false)
    try scheduler.start()
    defer { scheduler.stop() }
    let stoppedItself = Atomic<Bool>(false)
    let ended = Atomic<Bool>(false)
    let scheduled = Mutex<ScheduledStep<Trace>?>(nil)
    let step = ScheduledStep(on: scheduler, state: Trace())
    scheduled.withLock { $0 = step }
    step.start(at: SystemClock.monotonicNanoseconds()) { trace, now in
      scheduled.withLock { $0 }?.stop { _ in ended.store(true, ordering: .releasing) }
      stoppedItself.store(true, ordering: .releasing)
      usleep(10_000)
      return now
    }
    let stopping = Eventually.holds(within: 5, intervalMicroseconds: 100) {
      stoppedItself.load(ordering: .acquiring)
    }
    try #require(stopping)
    step.stop()
    let endedWhenStopReturned = ended.load(ordering: .acquiring)
    #expect(endedWhenStopReturned)
  }
}
