import Glibc
import Synchronization
import Testing

/// A trait for suites whose tests block (real pseudo-terminals, processes, sleeps): each test
/// runs on a thread of its own instead of Swift Testing's cooperative pool, which has one
/// thread a core. On two cores two blocking tests used to hold the whole pool, so every other
/// suite, pure ones too, queued behind them. At most `BlockingTests.limit` such tests run at once
/// (`MOCKGPS_BLOCKING_TESTS`, 8 by default); the others wait suspended, holding no thread.
/// Blocking tests mostly wait (on gpsd, a child process, the baud rate): on two cores, 8 at a
/// time keep about 70 % of the CPU busy and the warm suite took 202 s, against 313 s with 4.
///
/// ```swift
/// @Suite(.blocking) struct SomeProcessTests { ... }
/// ```
///
/// A `.timeLimit` counts from when the test starts, its wait for a slot included: in CI's full
/// run blocking tests waited up to about 330 s, so blocking suites give 10 minutes (a limit that
/// tells a hang from a slow turn), where 5 failed every test still queued in an overloaded run.
public struct BlockingTests: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  /// How many blocking tests run at once.
  public static let limit: Int = {
    guard let text = getenv("MOCKGPS_BLOCKING_TESTS").map({ String(cString: $0) }),
      let value = Int(text), value > 0
    else { return 8 }
    return value
  }()

  static let slots = AsyncSlots(count: limit)
  static let executor = ThreadPerJobExecutor()
  /// Set inside a blocking test, so that a nested suite with the trait takes no second slot.
  @TaskLocal static var isInside = false

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil, !Self.isInside else { return try await function() }
    await Self.slots.take()
    defer { Self.slots.give() }
    let started = TestTimes.now()
    defer { TestTimes.record(test, since: started) }
    try await Self.$isInside.withValue(true) {
      try await withTaskExecutorPreference(Self.executor) { try await function() }
    }
  }
}

/// Where the time of blocking tests goes: with `MOCKGPS_TEST_TIMES=FILE`, each blocking test
/// appends a line `SECONDS SUITE/TEST` to FILE, counted from when it got its slot (Swift
/// Testing's own times count the wait for a slot too, so every queued test reports the same).
enum TestTimes {
  nonisolated(unsafe) static let file: UnsafeMutablePointer<FILE>? = getenv("MOCKGPS_TEST_TIMES")
    .flatMap {
      fopen($0, "a")
    }

  static func now() -> Int64 { Eventually.monotonicNanoseconds() }

  static func record(_ test: Test, since started: Int64) {
    guard let file else { return }
    let milliseconds = (now() - started) / 1_000_000
    let line =
      "\(milliseconds / 1000).\(String(milliseconds % 1000 + 1000).dropFirst()) "
      + test.id.description + "\n"
    flockfile(file)
    fputs(line, file)
    fflush(file)
    funlockfile(file)
  }
}

extension Trait where Self == BlockingTests {
  /// The suite's tests block: each runs on a thread of its own, a bounded number at a time.
  public static var blocking: Self { BlockingTests() }
}

/// A counting semaphore whose waiters are suspended tasks, not blocked threads.
final class AsyncSlots: Sendable {
  private struct State {
    var free: Int
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state: Mutex<State>

  init(count: Int) { state = Mutex(State(free: count)) }

  func take() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let granted = state.withLock { state -> Bool in
        guard state.free > 0 else {
          state.waiters.append(waiter)
          return false
        }
        state.free -= 1
        return true
      }
      if granted { waiter.resume() }
    }
  }

  func give() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiters.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

/// Runs every job it is given on a new detached thread: a blocking test then blocks only its
/// own thread. Jobs are few (a test's synchronous body is one), so a thread each costs nothing
/// that matters.
final class ThreadPerJobExecutor: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    let start = Unmanaged.passRetained(
      JobStart(job: UnownedJob(job), executor: asUnownedTaskExecutor())
    ).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let status = pthread_create(
      &thread, &attributes,
      { raw in
        guard let raw else { return nil }
        let start = Unmanaged<JobStart>.fromOpaque(raw).takeRetainedValue()
        start.job.runSynchronously(on: start.executor)
        return nil
      }, start)
    precondition(status == 0, "pthread_create: \(String(cString: strerror(status)))")
  }
}

private final class JobStart: @unchecked Sendable {
  let job: UnownedJob
  let executor: UnownedTaskExecutor
  init(job: UnownedJob, executor: UnownedTaskExecutor) {
    self.job = job
    self.executor = executor
  }
}
