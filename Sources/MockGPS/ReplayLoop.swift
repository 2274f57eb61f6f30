import Receiver
import Replay
import RouteFiles
import Simulation
import Synchronization
import SystemIO

/// The device's one writer during a replay: on its own thread it takes the log's epochs from a
/// `ReplayEpochSource` and writes their bytes at the log's own times.
///
/// The timeline starts at T0 on the monotonic clock: at the start, or when the first client
/// opened the device plus the settle time. An epoch at offset o is due at T0 + o / time scale;
/// an untimed one as soon as the line is free after the one before. Within an epoch the bytes
/// are paced at the baud (line time compressed by the time scale), except a recording's chunk,
/// which arrived together and leaves in one write, and with `--baud 0`, which writes unpaced.
///
/// Unlike a live receiver, a replay never drops what a client may read: a late epoch is sent
/// late (and counted), and while a client has the device open and its queue is full, the
/// loop waits until the client has read. Without a client, epochs are lost as on a real line,
/// and counted.
final class ReplayLoop: Sendable {
  /// How the loop plays.
  struct Plan: Sendable {
    var pacing: BytePacing
    /// How many times as fast as the log the timeline runs.
    var timeScale: Double
    /// Nil: the timeline starts at once; else it starts this long after the first client opens.
    var settleAfterFirstClientNanoseconds: Int64?
  }

  /// How late an epoch may start before it is counted late.
  static let lateToleranceNanoseconds: Int64 = 10_000_000
  /// How often a wait for room in a full queue looks whether the client is still there.
  static let roomRecheckMilliseconds: Int32 = 50

  let plan: Plan
  let device: SerialDevice
  /// Told of every epoch as it falls due (control subscribers, network outputs).
  let listeners = EpochListeners()
  /// Set once the last epoch of a log played once has been sent.
  let finished = FinishLatch()
  /// Only the loop's thread reads epochs; others read its header and statistics.
  private let source: Mutex<any ReplayEpochSource>
  private let counters = Mutex(ReplayRunStatistics())
  private let firstClientNanoseconds = Mutex<Int64?>(nil)
  private let failure = Mutex<InputFileError?>(nil)
  private let afterEpoch: @Sendable (Int64) -> Void
  private let clock: any UTCClock
  private let log: Log
  private let thread: StoppableThread

  init(
    plan: Plan, source: sending any ReplayEpochSource, device: SerialDevice, log: Log,
    clock: any UTCClock = SystemUTCClock(),
    afterEpoch: @escaping @Sendable (Int64) -> Void = { _ in }
  ) throws(SystemError) {
    thread = try StoppableThread(name: "mockgps-replay")
    self.plan = plan
    self.source = Mutex(source)
    self.device = device
    self.log = log
    self.clock = clock
    self.afterEpoch = afterEpoch
  }

  func start() throws(SystemError) {
    try thread.start { [self] in
      SystemThread.raisePriorityIfAllowed()
      run()
    }
  }

  /// Stops the loop and waits until its thread has returned; may be called any number of times.
  func stop() {
    thread.stop()
  }

  /// Notes that a client opened the device that no client had open: the first one starts
  /// the timeline of a replay that waits for a client.
  func clientArrived() {
    let now = SystemClock.monotonicNanoseconds()
    firstClientNanoseconds.withLock { $0 = $0 ?? now }
    thread.wake()
  }

  /// The counters so far, with the reader's.
  var statistics: ReplayRunStatistics {
    var statistics = counters.withLock { $0 }
    statistics.reader = source.withLock { $0.statistics }
    return statistics
  }

  /// Why the replay stopped before the end of the log: the file could no longer be read.
  var readFailure: InputFileError? { failure.withLock { $0 } }

  private func run() {
    guard let start = waitForTimelineStart() else { return }
    let utcStart = clock.now().nanoseconds + (start - SystemClock.monotonicNanoseconds())
    source.withLock { $0.begin(liveStartNanoseconds: utcStart) }
    var lineFree = start
    while thread.shouldRun {
      let epoch: ReplayEpoch?
      do {
        epoch = try source.withLock { (source) throws(InputFileError) in try source.next() }
      } catch {
        log.error("\(error); the replay stops here")
        failure.withLock { $0 = error }
        finished.set()
        return
      }
      guard let epoch else {
        finished.set()
        return
      }
      let due = epoch.offsetNanoseconds.map { Self.adding(start, wireNanoseconds($0)) } ?? lineFree
      let begin = max(due, lineFree)
      if thread.sleep(untilMonotonicNanoseconds: begin) == .stopped { return }
      let now = SystemClock.monotonicNanoseconds()
      let lateness = now - due
      if lateness > Self.lateToleranceNanoseconds {
        counters.withLock {
          $0.epochsLate += 1
          $0.largestLatenessNanoseconds = max($0.largestLatenessNanoseconds, lateness)
        }
      }
      listeners.notify(
        DueEpoch(time: clock.now(), packets: epoch.packets.map(\.bytes), fix: nil))
      guard let free = send(epoch, startingAt: max(begin, now)) else { return }
      lineFree = free
      afterEpoch(SystemClock.monotonicNanoseconds())
    }
  }

  /// Waits for the start of the timeline; returns it on the monotonic clock, or nil when
  /// stopped first.
  private func waitForTimelineStart() -> Int64? {
    guard let settle = plan.settleAfterFirstClientNanoseconds else {
      return SystemClock.monotonicNanoseconds()
    }
    while thread.shouldRun {
      // The device may have seen its client before this thread started.
      if device.hasClients { clientArrived() }
      if let first = firstClientNanoseconds.withLock({ $0 }) {
        let start = first + settle
        return thread.sleep(untilMonotonicNanoseconds: start) == .stopped ? nil : start
      }
      _ = thread.wait(for: [], timeoutMilliseconds: -1)
    }
    return nil
  }

  /// Log time after the first epoch as wire time after T0.
  private func wireNanoseconds(_ logNanoseconds: Int64) -> Int64 {
    guard plan.timeScale != 1 else { return logNanoseconds }
    // A log's offsets grow without bound (a recording's gaps, loops): kept within a century.
    let wire = (Double(logNanoseconds) / plan.timeScale).rounded()
    return Int64(min(max(wire, 0), Double(Self.longestWaitNanoseconds)))
  }

  /// The furthest ahead an epoch is planned: a century.
  static let longestWaitNanoseconds: Int64 = 100 * 365 * 86_400 * 1_000_000_000

  /// `a + b`, held at `Int64.max` instead of overflowing.
  static func adding(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int64.max : sum
  }

  /// Writes `epoch` from `start` on; returns when the line is free for the next one, or nil
  /// when stopped.
  private func send(_ epoch: ReplayEpoch, startingAt start: Int64) -> Int64? {
    let bytes = epoch.bytes
    var written = 0
    let writeWaiting = { (slice: ArraySlice<UInt8>) -> Bool in
      let (count, complete) = self.writeWaitingForRoom(slice)
      written += count
      return complete
    }
    let lineFree: Int64
    if epoch.arrivedTogether || plan.pacing.baud == 0 {
      _ = writeWaiting(bytes[...])
      lineFree = SystemClock.monotonicNanoseconds()
    } else {
      var burst = PacedBurst(
        chunks: plan.pacing.chunks(
          forLineLengths: epoch.packets.map(\.bytes.count),
          granularityNanoseconds: EpochLoop.pacingGranularityNanoseconds,
          timeScale: plan.timeScale),
        startNanoseconds: start, toleranceNanoseconds: .max)
      _ = burst.write(bytes, on: thread, write: writeWaiting)
      lineFree = start + (burst.chunks.last?.offsetNanoseconds ?? 0) + burst.delayNanoseconds
    }
    guard thread.shouldRun else { return nil }
    counters.withLock { counters in
      counters.bytesSent += written
      if written == bytes.count {
        counters.epochsSent += 1
        counters.packetsSent += epoch.packets.count
      } else {
        counters.epochsWithoutClient += 1
        counters.bytesWithoutClient += bytes.count - written
      }
    }
    return lineFree
  }

  /// Writes `bytes`, waiting for room while the client has not read what came before.
  /// Returns how many bytes were written, and whether all were: not when no client has the
  /// device open (any more), or when the loop is stopped.
  private func writeWaitingForRoom(_ bytes: ArraySlice<UInt8>) -> (Int, Bool) {
    var remaining = bytes
    var waited = false
    while !remaining.isEmpty {
      switch device.writeSome(remaining) {
      case .wrote(let count):
        remaining = remaining.dropFirst(count)
      case .noClient:
        return (bytes.count - remaining.count, false)
      case .full:
        if !waited { counters.withLock { $0.clientWaits += 1 } }
        waited = true
        _ = thread.wait(
          for: [device.roomRequest], timeoutMilliseconds: Self.roomRecheckMilliseconds)
        guard thread.shouldRun else { return (bytes.count - remaining.count, false) }
      }
    }
    return (bytes.count, true)
  }
}
