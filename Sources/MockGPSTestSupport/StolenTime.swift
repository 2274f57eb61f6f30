import Glibc
import Synchronization
import SystemIO

/// The time the hypervisor took from this machine's virtual CPUs: the `steal` column of
/// `/proc/stat`, summed over the CPUs.
///
/// While a virtual CPU is taken, nothing on it runs: not even a SCHED_FIFO thread, whose timer
/// fires only when the CPU is given back. On the 2-CPU virtual machines the suite runs on, with
/// both CPUs busy, the host takes one for about 100 ms at a time (seen: the epoch thread's
/// timerfd expired 96 ms late, with 10 ticks of steal on its CPU at that instant and none
/// elsewhere), which makes a 10 Hz epoch late. `StealWatch` tells a real-clock test when.
enum StolenTime {
  /// The length of the ticks `/proc/stat` counts in.
  static let tickNanoseconds: Int64 = 1_000_000_000 / Int64(max(sysconf(Int32(_SC_CLK_TCK)), 1))

  /// The steal of every CPU since boot, in nanoseconds; 0 when `/proc/stat` has no steal column.
  static func totalNanoseconds() -> Int64 {
    guard let file = fopen("/proc/stat", "r") else { return 0 }
    defer { fclose(file) }
    var ticks: Int64 = 0
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    // "cpu ...", then "cpuN user nice system idle iowait irq softirq steal ..." for each CPU,
    // then the interrupt counts and the rest, which are not read.
    while getline(&line, &capacity, file) > 0, let line, line[0] == 0x63, line[1] == 0x70 {
      let fields = String(cString: line).split(separator: " ")
      guard fields[0] != "cpu", fields.count > 8, let steal = Int64(fields[8]) else { continue }
      ticks += steal
    }
    return ticks * tickNanoseconds
  }
}

/// Watches when the hypervisor takes a CPU, so that a real-clock test can leave out the
/// intervals it could not judge, or allow for what was taken: a thread samples the steal of
/// `/proc/stat` every 5 ms and notes each increase with the span it fell in. On a machine that
/// takes nothing, every interval is judged and nothing is allowed for.
///
/// With `watchWaiting(of:)`, it also notes when a thread of a process the test names waited
/// for a CPU for `waitingNanoseconds` or more within one sample (`RunQueueWait`; a test that
/// allows for shorter waits gives its own threshold to `start`): the machine took the CPU from
/// it as surely as the hypervisor does.
public final class StealWatch: Sendable {
  /// The clocks a span is given on.
  public enum Clock: Sendable {
    /// Nanoseconds since the epoch (`SystemClock.nanosecondsSinceEpoch`, a recording's arrivals).
    case realtime
    /// The monotonic clock (`SystemClock.monotonicNanoseconds`, `DeviceReader`'s arrivals).
    case monotonic
  }

  /// A span in which CPU time was taken.
  public struct Episode: Sendable, CustomStringConvertible {
    /// The earliest the taking may have begun, on the monotonic clock: the sample before its
    /// increase, less what was taken and a tick of accounting.
    public let fromNanoseconds: Int64
    /// The sample that saw the increase, on the monotonic clock.
    public let untilNanoseconds: Int64
    /// The time taken.
    public let stolenNanoseconds: Int64
    /// True for a watched process's wait for a CPU, false for the hypervisor's steal.
    public var isWaiting = false

    public var description: String {
      let tenths = (stolenNanoseconds + 50_000) / 100_000
      let kind = isWaiting ? "waited " : ""
      return "\(tenths / 10).\(tenths % 10) ms \(kind)until \(untilNanoseconds)"
    }
  }

  /// A thread's wait for a CPU within one sample that counts as an episode, unless `start`
  /// is given another.
  public static let waitingNanoseconds: Int64 = 2_000_000

  /// The wait within one sample that counts as an episode for this watch.
  public let noticedWaitNanoseconds: Int64

  private let thread: StoppableThread
  private let noted = Mutex<[Episode]>([])
  /// The processes whose threads' waits are watched, with each thread's wait when last sampled,
  /// and whether only their real-time threads are.
  private let waits = Mutex<[Int32: (threads: [Int32: Int64], selection: ThreadSelection)]>([:])
  private let watchesKernelWorkers = Atomic<Bool>(false)
  /// The real-time clock less the monotonic one, at the start.
  private let realtimeOffset =
    SystemClock.nanosecondsSinceEpoch() - SystemClock.monotonicNanoseconds()

  private init(noticedWaitNanoseconds: Int64) throws(SystemError) {
    thread = try StoppableThread(name: "steal-watch")
    self.noticedWaitNanoseconds = noticedWaitNanoseconds
  }

  /// Starts watching; a watched thread's wait for a CPU of `noticedWaitNanoseconds` or more
  /// within one sample is an episode.
  public static func start(noticedWaitNanoseconds: Int64 = waitingNanoseconds)
    throws(SystemError) -> StealWatch
  {
    let watch = try StealWatch(noticedWaitNanoseconds: noticedWaitNanoseconds)
    try watch.thread.start { [watch] in watch.sample() }
    return watch
  }

  /// Stops watching (any number of times); the episodes noted stay.
  public func stop() {
    thread.stop()
  }

  /// The episodes noted so far.
  public var episodes: [Episode] { noted.withLock { $0 } }

  /// Watches, from now on, the waits for a CPU of `process`'s real-time threads (those that time
  /// what a test measures; every thread's with `realtimeOnly` false). Such an episode tells
  /// `touches` that the interval cannot be judged; `explains` counts the hypervisor's only (a
  /// steal also shows as a wait of whatever it stopped).
  public func watchWaiting(of process: Int32, realtimeOnly: Bool = true) {
    watch(process, ThreadSelection(realtimeOnly: realtimeOnly, named: nil))
  }

  /// Watches, from now on, the waits for a CPU of `process`'s threads called `name`, whatever
  /// their priority (mockgps's `mockgps-io`, which discards what a client left unread).
  public func watchWaiting(of process: Int32, threadsNamed name: String) {
    watch(process, ThreadSelection(realtimeOnly: false, named: name))
  }

  private func watch(_ process: Int32, _ selection: ThreadSelection) {
    let now = selection.waits(of: process)
    waits.withLock { $0[process] = (now, selection) }
  }

  /// Watches, from now on, the waits for a CPU of the kernel's workers that carry what is
  /// written into a pseudo-terminal to its reader (`RunQueueWait.unboundKernelWorkers`), as
  /// `watchWaiting(of:)` does a process's: a reader at real-time priority still gets its bytes
  /// only when such a worker has had a CPU. Workers started later are watched from the next
  /// listing (every `workerListingSamples` samples), with all their waits: they started since
  /// the listing before (the kernel starts one when the others are busy, under load).
  public func watchKernelWorkers() {
    watchesKernelWorkers.store(true, ordering: .relaxed)
    watchNewKernelWorkers(startedSinceLastListing: false)
  }

  /// How many samples apart the kernel's workers are listed again.
  static let workerListingSamples = 40

  private func watchNewKernelWorkers(startedSinceLastListing: Bool) {
    for worker in RunQueueWait.unboundKernelWorkers()
    where waits.withLock({ $0[worker] == nil }) {
      let every = ThreadSelection(realtimeOnly: false, named: nil)
      var threads = every.waits(of: worker)
      if startedSinceLastListing { threads = threads.mapValues { _ in 0 } }
      waits.withLock { $0[worker] = (threads, every) }
    }
  }

  /// True when CPU time may have been taken between the two instants of `clock`.
  public func touches(
    fromNanoseconds from: Int64, untilNanoseconds until: Int64, on clock: Clock
  ) -> Bool {
    !episodes(fromNanoseconds: from, untilNanoseconds: until, on: clock).isEmpty
  }

  /// The CPU time taken in the episodes that touch the span between the two instants of
  /// `clock`: at most what it may have delayed anything in the span.
  public func stolenNanoseconds(
    fromNanoseconds from: Int64, untilNanoseconds until: Int64, on clock: Clock
  ) -> Int64 {
    episodes(fromNanoseconds: from, untilNanoseconds: until, on: clock).reduce(0) {
      $0 + $1.stolenNanoseconds
    }
  }

  /// The longest single episode that touches the span between the two instants of `clock`
  /// (0 when none does): what the machine surely may have delayed one thing in the span by,
  /// without adding up waits that overlap or that the same steal caused.
  public func longestEpisodeNanoseconds(
    fromNanoseconds from: Int64, untilNanoseconds until: Int64, on clock: Clock
  ) -> Int64 {
    episodes(fromNanoseconds: from, untilNanoseconds: until, on: clock).map(\.stolenNanoseconds)
      .max() ?? 0
  }

  /// The episodes that touch the span between the two instants of `clock`.
  private func episodes(
    fromNanoseconds from: Int64, untilNanoseconds until: Int64, on clock: Clock
  ) -> [Episode] {
    let offset = clock == .realtime ? realtimeOffset : 0
    return episodes.filter {
      $0.fromNanoseconds + offset <= until && $0.untilNanoseconds + offset >= from
    }
  }

  /// True when the episodes noted could have made `count` deadlines late, each by more than
  /// `toleranceNanoseconds`: a deadline is late only when its thread could not run for that
  /// long, so only episodes that long count (one tick less, for the kernel's rounding).
  public func explains(_ count: Int, lateBeyondNanoseconds toleranceNanoseconds: Int64) -> Bool {
    count <= 0
      || episodes.count {
        !$0.isWaiting
          && $0.stolenNanoseconds >= toleranceNanoseconds - StolenTime.tickNanoseconds
      } >= count
  }

  /// The time taken in every episode noted, in milliseconds (for a message).
  public var milliseconds: Double {
    Double(episodes.reduce(0) { $0 + $1.stolenNanoseconds }) / 1e6
  }

  private func sample() {
    var stolen = StolenTime.totalNanoseconds()
    var sampled = SystemClock.monotonicNanoseconds()
    var deadline = sampled
    var samples = 0
    while thread.shouldRun {
      deadline = max(deadline + 5_000_000, SystemClock.monotonicNanoseconds())
      if thread.sleep(untilMonotonicNanoseconds: deadline) == .stopped { return }
      samples += 1
      if samples % Self.workerListingSamples == 0,
        watchesKernelWorkers.load(ordering: .relaxed)
      {
        watchNewKernelWorkers(startedSinceLastListing: true)
      }
      // The clock read on both sides of the file: what the reading finds was taken before its
      // end, and after the start of the reading before it.
      let started = SystemClock.monotonicNanoseconds()
      let total = StolenTime.totalNanoseconds()
      let waited = longestWaitSinceLastSample()
      let ended = SystemClock.monotonicNanoseconds()
      if waited >= noticedWaitNanoseconds {
        let episode = Episode(
          fromNanoseconds: sampled - waited, untilNanoseconds: ended, stolenNanoseconds: waited,
          isWaiting: true)
        noted.withLock { $0.append(episode) }
      }
      if total > stolen {
        let episode = Episode(
          fromNanoseconds: sampled - (total - stolen) - StolenTime.tickNanoseconds,
          untilNanoseconds: ended, stolenNanoseconds: total - stolen)
        noted.withLock { $0.append(episode) }
      }
      (stolen, sampled) = (total, started)
    }
  }

  /// The longest wait for a CPU of one watched thread since the last sample.
  private func longestWaitSinceLastSample() -> Int64 {
    let processes = waits.withLock { $0.mapValues(\.selection) }
    guard !processes.isEmpty else { return 0 }
    var longest: Int64 = 0
    var now: [Int32: [Int32: Int64]] = [:]
    for (process, selection) in processes { now[process] = selection.waits(of: process) }
    waits.withLock { waits in
      for (process, threads) in now {
        guard let before = waits[process] else { continue }
        for (thread, wait) in threads {
          longest = max(longest, wait - (before.threads[thread] ?? wait))
        }
        waits[process] = (threads, before.selection)
      }
    }
    return longest
  }
}

/// The threads of a process whose waits a `StealWatch` notes.
private struct ThreadSelection {
  var realtimeOnly: Bool
  var named: String?

  func waits(of process: Int32) -> [Int32: Int64] {
    RunQueueWait.nanosecondsByThread(of: process, realtimeOnly: realtimeOnly, named: named)
  }
}
