import Glibc
import Receiver
import Synchronization
import SystemIO

/// Runs the epoch work of every device of a runtime on one thread, each task at its deadline
/// on the monotonic clock (a `TaskQueue`): a task is a step that does what is due and
/// returns when it next wants to run. The thread sleeps until the earliest deadline, and is
/// woken early when a task is added or moved earlier, or when a descriptor a step waits on
/// becomes writable (`whenWritable`: a client that had no room has read).
///
/// In manual mode there is no thread: nothing runs until `runDue()` is called, and the time is
/// whatever `monotonicNanoseconds` reads (a test's manual clock); `runDue()` looks at the
/// descriptors waited on first.
package final class DeadlineScheduler: Sendable {
  /// A task's step: given the monotonic time, does what is due and returns its next deadline,
  /// or nil when it is done. It must not block.
  package typealias Step = @Sendable (Int64) -> Int64?

  /// A scheduled task, to wake or remove it.
  package struct TaskID: Hashable, Sendable {
    fileprivate let handle: TaskHandle
  }

  private final class Task: Sendable {
    let step: Step
    /// False for a task that has no time to keep (see `add(at:keepsTime:_:)`).
    let keepsTime: Bool
    let alive = Atomic<Bool>(true)
    /// Held while the step runs, so that `remove` can wait for a step in progress.
    let running = Mutex<Void>(())

    init(step: @escaping Step, keepsTime: Bool) {
      self.step = step
      self.keepsTime = keepsTime
    }
  }

  private struct State {
    /// Tasks due at the same instant run in the order they were added, every time: a fleet's
    /// devices due together write their epochs in the same order each period, so that each
    /// device's lateness is its place in that order, not a draw of it (see
    /// `EmulatorRuntime.monotonicNanoseconds(atUTC:utcNow:monotonicNow:)`).
    var tasks = TaskQueue<Task>()
    /// How many of the tasks keep a time.
    var timedTasks = 0

    /// Whether the thread should run at real-time priority: while a task keeps a time, and
    /// while it has no task (the next may be a live device, whose first epoch should not wait
    /// for the priority to change).
    var wantsRealTime: Bool { timedTasks > 0 || tasks.count == 0 }

    mutating func add(_ task: Task) -> TaskHandle {
      if task.keepsTime { timedTasks += 1 }
      return tasks.add(task)
    }

    mutating func remove(_ handle: TaskHandle) -> Task? {
      let task = tasks.remove(handle)
      if let task, task.keepsTime { timedTasks -= 1 }
      return task
    }
  }

  /// The time of the deadlines: the monotonic clock, or a test's clock in manual mode.
  package let monotonicNanoseconds: @Sendable () -> Int64
  private let state = Mutex(State())
  /// Nil in manual mode.
  private let thread: StoppableThread?
  /// The thread running steps now (0: none), so that a step may remove its own task.
  private let runner = Atomic<UInt>(0)
  /// The scheduler's thread, once started (0: none): it needs no wake-up to see what it did.
  private let ownThread = Atomic<UInt>(0)
  /// The descriptors steps wait on, polled with the thread's sleep.
  private let watches = DescriptorWatches()

  /// Creates a scheduler with its thread (not started), or a manual one when `manual`.
  package init(
    name: String, manual: Bool,
    monotonicNanoseconds: @escaping @Sendable () -> Int64 = SystemClock.monotonicNanoseconds
  ) throws(SystemError) {
    thread = manual ? nil : try StoppableThread(name: name)
    self.monotonicNanoseconds = monotonicNanoseconds
  }

  /// Starts the thread, at a raised priority when allowed (see `keep(_:realTime:)`); nothing in
  /// manual mode.
  package func start() throws(SystemError) {
    try thread?.start { [self] in
      ownThread.store(SystemThread.currentID, ordering: .releasing)
      run()
    }
  }

  /// Stops the thread and waits for it; any number of times, from any thread. Tasks left are
  /// not run again; the duplicates of the waits left are closed.
  package func stop() {
    thread?.stop()
    if thread != nil { watches.closeAll() }
  }

  /// True when no thread runs the tasks: `runDue()` does.
  package var isManual: Bool { thread == nil }

  /// Adds a task first due at `deadline`. A task that does not `keepsTime` (an unpaced
  /// replay: as fast as its client reads) lets the thread run at the ordinary priority while
  /// every task is such (see `keep(_:realTime:)`).
  package func add(at deadline: Int64, keepsTime: Bool = true, _ step: @escaping Step) -> TaskID {
    let task = Task(step: step, keepsTime: keepsTime)
    let (handle, earliest) = state.withLock { state in
      let handle = state.add(task)
      return (handle, state.tasks.scheduleNoLaterThan(handle, at: deadline))
    }
    if earliest { wakeThread() }
    return TaskID(handle: handle)
  }

  /// Moves a task to now, or to `deadline` when given, unless it is due earlier already; a
  /// task running now runs again at once after its step. Nothing for a removed task. Woken
  /// for now, it runs after the tasks due by now (on a test's manual clock, also after those
  /// due at the same instant: a device's step that yields after its first write lets every
  /// other device due with it write first).
  package func wake(_ id: TaskID, at deadline: Int64? = nil) {
    let when = deadline ?? monotonicNanoseconds()
    let earliest = state.withLock { state in
      state.tasks.scheduleNoLaterThan(id.handle, at: when, afterTies: deadline == nil)
    }
    if earliest { wakeThread() }
  }

  /// Calls `ready` once, on the scheduler's thread (in manual mode, in `runDue()`), when
  /// `descriptor` (a duplicate, which the wait closes) is writable, hung up or failed.
  package func whenWritable(
    _ descriptor: consuming FileDescriptor, _ ready: @escaping @Sendable () -> Void
  ) -> DescriptorWatches.ID {
    let id = watches.add(descriptor, ready: ready)
    wakeThread()
    return id
  }

  /// Ends a wait of `whenWritable`: its `ready` is not called after this returns (unless it
  /// is running). Any number of times, from any thread. The thread closes the duplicate at its
  /// next look, which a cancel from another thread makes at once (a device stopped while its
  /// replay waited: the duplicate would hold its terminal open until the next deadline).
  package func cancel(_ id: DescriptorWatches.ID) {
    if watches.cancel(id) { wakeThread() }
  }

  /// Ends the thread's sleep, so that it looks at the queue and the descriptors again; not
  /// needed on the thread itself, which looks after each step.
  private func wakeThread() {
    guard ownThread.load(ordering: .acquiring) != SystemThread.currentID else { return }
    thread?.wake()
  }

  /// Removes a task and waits until a step of it in progress has returned (unless called from
  /// that step); it does not run after this returns.
  package func remove(_ id: TaskID) {
    let task = state.withLock { state in state.remove(id.handle) }
    guard let task else { return }
    task.alive.store(false, ordering: .releasing)
    guard runner.load(ordering: .acquiring) != SystemThread.currentID
    else { return }
    task.running.withLock { _ in }
  }

  /// The earliest deadline of all tasks, or nil when there is none.
  package var nextDeadline: Int64? { state.withLock { $0.tasks.earliestDeadline } }

  /// Whether a task is due by `nanoseconds` besides the one running now, which counts only
  /// when it was woken during its step (it then runs again at once): a step asks before work
  /// that can wait, so as not to hold back the devices due with it.
  package func hasOthersDue(byNanoseconds nanoseconds: Int64) -> Bool {
    state.withLock { ($0.tasks.earliestDeadline ?? .max) <= nanoseconds }
  }

  /// How many tasks there are.
  package var taskCount: Int { state.withLock { $0.tasks.count } }

  /// Runs every step due now, and the steps they make due now, on the calling thread; returns
  /// how many steps ran. The thread calls it after each sleep; in manual mode, the test does.
  @discardableResult
  package func runDue() -> Int {
    var unchanged = RealTimeState(mayHave: false)
    return runDue(keeping: &unchanged)
  }

  /// `runDue()`, with the thread's priority set before each step (see `keep(_:realTime:)`): a
  /// round may last as long as an unpaced replay without a client is due again at once, and a
  /// live device added meanwhile runs its steps in it.
  @discardableResult
  private func runDue(keeping priority: inout RealTimeState) -> Int {
    let me = SystemThread.currentID
    runner.store(me, ordering: .releasing)
    defer { runner.store(0, ordering: .releasing) }
    if thread == nil { watches.lookNow() }
    var ran = 0
    while thread?.shouldRun ?? true {
      let now = monotonicNanoseconds()
      let (due, wantsRealTime) = state.withLock { state in
        (state.tasks.popDue(now: now), state.wantsRealTime)
      }
      guard let (handle, task) = due else { break }
      Self.keep(&priority, realTime: wantsRealTime)
      let next = task.running.withLock { _ in
        task.alive.load(ordering: .acquiring) ? task.step(now) : nil
      }
      ran += 1
      state.withLock { state in
        guard let next else {
          _ = state.remove(handle)
          return
        }
        // A wake during the step scheduled it already: the earlier of the two holds. A step
        // that asks to run again at once (by the instant it ran at) runs after the others due
        // then, as a wake for now does. Nothing for a task removed during its step.
        state.tasks.scheduleNoLaterThan(handle, at: next, afterTies: next <= now)
      }
    }
    return ran
  }

  private func run() {
    guard let thread else { return }
    var priority = RealTimeState(mayHave: SystemThread.raisePriorityIfAllowed())
    while thread.shouldRun {
      runDue(keeping: &priority)
      let deadline = nextDeadline ?? Int64.max
      let looked = watches.lookUp()
      let (wake, events) = thread.sleep(
        untilMonotonicNanoseconds: deadline, orUntilReady: looked.map(\.request))
      if wake == .stopped { return }
      watches.fire(looked, events: events)
    }
  }

  /// Whether the thread has real-time priority, and whether it may.
  private struct RealTimeState {
    /// False where the thread is not allowed it (no root, `CAP_SYS_NICE` or `RLIMIT_RTPRIO`),
    /// or no longer, and in manual mode: it is never asked for again.
    var mayHave: Bool
    var has: Bool

    init(mayHave: Bool) {
      self.mayHave = mayHave
      has = mayHave
    }
  }

  /// Before each step the thread runs: real-time priority (when allowed) while a task keeps
  /// a time or none is there, the ordinary one while every task has no time to keep.
  ///
  /// A thread at real-time priority that writes into a pseudo-terminal delays the bytes it
  /// writes: the kernel hands them to the reader through a worker at the ordinary priority
  /// (`flush_to_ldisc`), which the write wakes on the same CPU and the woken writer keeps from
  /// it. An unpaced replay whose client reads 4 KiB at a time wakes at each read, so that at
  /// real-time priority every 4 KiB waited for the worker behind it (the reader's poll 35 to 40
  /// us between reads of 4,095 bytes). A task that keeps a time keeps the priority for all:
  /// a live device whose client fell behind waits for room too, and needs its wake-up on time
  /// once the client has read.
  private static func keep(_ priority: inout RealTimeState, realTime wanted: Bool) {
    guard priority.mayHave, wanted != priority.has else { return }
    if wanted {
      priority.has = SystemThread.raisePriorityIfAllowed()
      priority.mayHave = priority.has
    } else {
      SystemThread.useOrdinaryPriority()
      priority.has = false
    }
  }
}
