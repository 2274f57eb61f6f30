import Simulation
import Synchronization
import SystemIO

/// The threads that serve emulators, shared by every device of a process: one I/O thread
/// (`io`: client input of every device, control connections, network outputs, through epoll)
/// and one scheduler thread (every device's epochs and their paced writes, on one deadline
/// queue). The number of threads does not grow with the number of devices, of any kind: a
/// passed-through receiver is read on `io` too.
///
/// A manual runtime (`init(manualClock:)`, for tests) has no scheduler thread: its time is a
/// clock the test moves, and nothing is sent until the test calls `runDue()`.
public final class EmulatorRuntime: Sendable {
  /// The I/O thread, started by `init`.
  public let io: IOLoop
  /// The inotify instance that reports clients opening and closing the devices, on `io`:
  /// one per process however many devices it runs (Linux allows a user 128 by default).
  public let nodeWatchers: DeviceNodeWatcherHub
  /// The udev monitor that tells passed-through receivers of hotplug, on `io`: one per process.
  package let receiverHotplug: ReceiverHotplugHub
  /// The UTC time the emulators on it read.
  public let clock: any UTCClock
  /// The deadline queue of every live emulator's epochs.
  package let scheduler: DeadlineScheduler
  /// True when the devices of the emulators on it are lines in memory (`MemoryLine`), not
  /// pseudo-terminals: a test's (`init(manualClock:devicesInMemory:)`).
  public let devicesInMemory: Bool

  /// Creates and starts the runtime's threads.
  public init(clock: any UTCClock = SystemUTCClock()) throws(SystemError) {
    self.clock = clock
    devicesInMemory = false
    scheduler = try DeadlineScheduler(name: "mockgps-epochs", manual: false)
    io = try IOLoop(name: "mockgps-io")
    nodeWatchers = try DeviceNodeWatcherHub(io: io)
    receiverHotplug = ReceiverHotplugHub(io: io)
    try io.start()
    // The I/O thread stays at the ordinary priority (unless a passthrough runs): it handles
    // what clients write and what TCP clients send, and at SCHED_FIFO a client writing without
    // end held a CPU at real-time priority (92 % of one, an ordinary process pinned there got
    // 6.5 %). At the ordinary priority a loaded machine can keep it from a discard or a line
    // reset for milliseconds, which a client reopening at once may see (see README, Security).
    do {
      try scheduler.start()
    } catch {
      io.stop()
      throw error
    }
  }

  /// Creates a runtime whose time is `clock` alone, the monotonic time of its loops included:
  /// nothing is sent by itself, `runDue()` runs what is due at the clock's now. Only the I/O
  /// thread is started. With `devicesInMemory`, the emulators on it write to a `MemoryLine`
  /// instead of a pseudo-terminal.
  public init(manualClock clock: any UTCClock, devicesInMemory: Bool = false)
    throws(SystemError)
  {
    self.clock = clock
    self.devicesInMemory = devicesInMemory
    scheduler = try DeadlineScheduler(
      name: "mockgps-epochs", manual: true, monotonicNanoseconds: { clock.now().nanoseconds })
    io = try IOLoop(name: "mockgps-io")
    nodeWatchers = try DeviceNodeWatcherHub(io: io)
    receiverHotplug = ReceiverHotplugHub(io: io)
    try io.start()
  }

  /// True for a runtime made by `init(manualClock:)`.
  public var isManual: Bool { scheduler.isManual }

  /// Runs every epoch step due at the clock's now, on the calling thread, and returns how many
  /// ran: how a test drives a manual runtime (a running one does this on its own thread).
  @discardableResult
  public func runDue() -> Int {
    scheduler.runDue()
  }

  /// When the next step is due, on the loops' monotonic clock (the clock's nanoseconds since
  /// the epoch for a manual runtime), or nil when no emulator is running.
  public var nextDeadlineNanoseconds: Int64? { scheduler.nextDeadline }

  /// The loops' monotonic time now.
  package func monotonicNanoseconds() -> Int64 { scheduler.monotonicNanoseconds() }

  /// The loops' monotonic time at the clock's UTC nanoseconds `utc`, given the two clocks read
  /// one after the other (`utcNow`, `monotonicNow`).
  ///
  /// Every loop of the runtime converts with one offset between the clocks, so devices due at
  /// the same UTC instant get the same deadline, and the scheduler runs them in the order they
  /// were added, every period. Converted each with its own two readings, their deadlines
  /// differed by the nanoseconds between the readings, and the order of 1,000 devices' first
  /// writes was drawn anew each period: every device was last now and then, and each device's
  /// p99 lateness was the whole burst's.
  ///
  /// The offset changes only when the UTC clock is stepped (a slew moves the monotonic clock
  /// too). A caller's readings that stray from it by more than `clockOffsetTolerance` (a step,
  /// or a caller preempted between its readings) have it read again, tightly (else the
  /// caller's readings are taken); a new reading replaces it when it differs by more than
  /// `clockOffsetResolution`. An instant ahead on the clock is never converted to one that has
  /// passed: a step smaller than the tolerance would otherwise have its loop woken, with
  /// nothing due, until the clock caught up.
  package func monotonicNanoseconds(atUTC utc: Int64, utcNow: Int64, monotonicNow: Int64)
    -> Int64
  {
    var offset = clockOffset.load(ordering: .relaxed)
    let measured = utcNow - monotonicNow
    if offset == .min || abs(measured - offset) > Self.clockOffsetTolerance {
      // Without a tight reading (a slow clock source, or preempted three times), the caller's:
      // a step is followed at once, and a reading off by a preemption is read again later.
      let read = tightClockOffset() ?? measured
      if offset == .min || abs(read - offset) > Self.clockOffsetResolution {
        offset = read
        clockOffset.store(offset, ordering: .relaxed)
      }
    }
    let converted = utc - offset
    guard utc > utcNow, converted <= monotonicNow else { return converted }
    return monotonicNow + (utc - utcNow)
  }

  /// How far a caller's two readings may stray from the runtime's offset before it is read
  /// again: beyond the nanoseconds between a loop's two readings.
  static let clockOffsetTolerance: Int64 = 10_000

  /// How far a reading of the offset may be from the one kept and not replace it: as far as
  /// two tight readings can be from each other (each off by at most half the gap it allows).
  static let clockOffsetResolution: Int64 = 10_000

  /// The UTC clock less the monotonic one, as `monotonicNanoseconds(atUTC:…)` converts; `.min`
  /// until the first conversion.
  private let clockOffset = Atomic<Int64>(.min)

  /// The UTC clock less the monotonic one, read between two monotonic readings at most 10 µs
  /// apart (the thread was not preempted in between), or nil after three tries.
  private func tightClockOffset() -> Int64? {
    for _ in 0..<3 {
      let before = scheduler.monotonicNanoseconds()
      let utc = clock.now().nanoseconds
      let after = scheduler.monotonicNanoseconds()
      if after - before <= 10_000 { return utc - (before + (after - before) / 2) }
    }
    return nil
  }

  /// Stops the threads; call after every emulator on it has stopped. Any number of times.
  public func stop() {
    nodeWatchers.close()
    receiverHotplug.close()
    scheduler.stop()
    io.stop()
  }
}
