import DeviceRuntime
import DeviceTerminal
import InputFiles
import Receiver
import Replay
import RouteFiles
import Simulation
import Synchronization
import SystemIO

/// The device's one writer during a replay: a task on its runtime's scheduler (one thread for
/// every device), each step of which takes the log's epochs from a `ReplayEpochSource` when
/// they fall due and writes their bytes at the log's own times, a chunk a step; then returns
/// when it next wants to run.
///
/// The timeline starts at T0 on the monotonic clock: at the start, or when the first client
/// opened the device plus the settle time. An epoch at offset o is due at T0 + o / time scale;
/// an untimed one as soon as the line is free after the one before. Within an epoch the bytes
/// are paced at the baud (line time compressed by the time scale), except a recording's chunk,
/// which arrived together and leaves in one write, and with `--baud 0`, which writes unpaced:
/// then the epochs already due when one begins join its write (`JoinedEpochs`), so that a log
/// replayed faster than its client reads leaves in writes of tens of KiB.
///
/// The control protocol's `pause`, `resume` and `seek` move the timeline (see
/// `ReplayLoop+Steering.swift`): asked on the I/O thread, applied by the next step, never in the
/// middle of an epoch being written.
///
/// The bytes go out through the device's `Transmitter`, as a simulated receiver's do: it paces
/// them, counts them and tells the listeners. Unlike a live receiver, a replay never drops what
/// a client may read: a late epoch is sent late (and counted), and while a client has the
/// device open and its queue is full, the transmitter waits for room (`waitForRoom`: the
/// scheduler's thread wakes the step when the client has read). Without a client, epochs are
/// lost as on a real line, and counted.
package final class ReplayLoop: Sendable {
  /// How the loop plays.
  package struct Plan: Sendable {
    package var pacing: BytePacing
    /// How many times as fast as the log the timeline runs.
    package var timeScale: Double
    /// Nil: the timeline starts at once; else it starts this long after the first client opens.
    package var settleAfterFirstClientNanoseconds: Int64?

    /// A plan of these settings.
    package init(pacing: BytePacing, timeScale: Double, settleAfterFirstClientNanoseconds: Int64?) {
      self.pacing = pacing
      self.timeScale = timeScale
      self.settleAfterFirstClientNanoseconds = settleAfterFirstClientNanoseconds
    }

    /// The largest time scale of a replay (`--time-scale`): a day of the log in 86 ms.
    package static let largestTimeScale: Double = 1_000_000

    /// False for an unpaced replay (`--baud 0`) at `largestTimeScale`, which asks for the log
    /// as fast as its client reads: its epochs are all due, and the scheduler's thread serves
    /// them best at the ordinary priority (see `DeadlineScheduler.keep(_:realTime:)`). Any
    /// other keeps a time: at a thousand times a 1 Hz log's epochs are a millisecond apart, and
    /// at the ordinary priority beside two busy loops 30 to 113 of 5,000 were late, by up to
    /// 23 ms (helper-113's review, at 1,001 times; none at real time).
    package var keepsTime: Bool { pacing.baud != 0 || timeScale < Self.largestTimeScale }
  }

  /// One epoch being written, with the epochs joined to its write.
  fileprivate struct Sending {
    /// The epoch (the first, when others joined it).
    var epoch: ReplayEpoch
    /// Empty until it begins; then it and the epochs joined to it, with their bytes.
    var joined = JoinedEpochs()
    /// When it is due on the monotonic clock, and when it may begin (the line is free).
    var due: Int64
    var begin: Int64
    /// Nil until it has begun; then its bytes on their way out.
    var transmission: Transmitter.Transmission?

    /// True once it has begun.
    var started: Bool { transmission != nil }
  }

  /// What the steps carry from one to the next; only steps touch it.
  struct Progress {
    /// The timeline's T0, once it has started: when the log's start went out, or would have
    /// (a seek or a pause moves it).
    var start: Int64?
    /// The UTC time of the log's start on the timeline, for `--time now`.
    var liveStart: Int64 = 0
    fileprivate var sending: Sending?
    /// The epoch read after the ones joined to `sending` that could not join it (not due yet,
    /// or no room): the next to send. Planned when it is taken (`makeSending`), not when it was
    /// read: an untimed one is due when the line is free of the write before it.
    fileprivate var ahead: ReplayEpoch?
    /// The log time of the last epoch begun (an untimed epoch stands at the timed one's).
    var position: Int64 = 0
    /// The storage of the last write's epochs, emptied, for the next write's.
    fileprivate var spareJoined = JoinedEpochs()
  }

  /// How late an epoch may start before it is counted late.
  static let lateToleranceNanoseconds: Int64 = 10_000_000
  /// How often a replay that waits for its first client looks whether one has come (it is
  /// woken when one does).
  static let clientRecheckNanoseconds: Int64 = 1_000_000_000

  let plan: Plan
  /// The device written to.
  let device: SerialDevice
  /// The device's transmit path: pacing, admission (`waitForRoom`), counters and listeners.
  package let transmitter: Transmitter
  /// Told of every epoch as it falls due (control subscribers, network outputs): the
  /// transmitter's.
  var listeners: EpochListeners { transmitter.listeners }
  /// Set once the last epoch of a log played once has been sent.
  package let finished = FinishLatch()
  /// Only the loop's thread reads epochs; others read its header and statistics, and a seek
  /// makes a new one from it.
  let source: Mutex<any ReplayEpochSource>
  /// Pause, resume and seek as asked, for the next step (see `ReplayLoop+Steering.swift`).
  let steering = Mutex(ReplaySteering())
  private let firstClientNanoseconds = Mutex<Int64?>(nil)
  private let failure = Mutex<InputFileError?>(nil)
  private let afterEpoch: @Sendable (Int64) -> Void
  let runtime: EmulatorRuntime
  private let log: Log
  /// The loop's place on the scheduler, with what its steps carry from one to the next.
  let scheduled: ScheduledStep<Progress>

  package init(
    plan: Plan, source: sending any ReplayEpochSource, device: SerialDevice, log: Log,
    runtime: EmulatorRuntime, afterEpoch: @escaping @Sendable (Int64) -> Void = { _ in }
  ) {
    self.plan = plan
    self.source = Mutex(source)
    self.device = device
    transmitter = Transmitter(device: device, admission: .waitForRoom, runtime: runtime)
    self.log = log
    self.runtime = runtime
    scheduled = ScheduledStep(on: runtime.scheduler, state: Progress(), keepsTime: plan.keepsTime)
    self.afterEpoch = afterEpoch
  }

  /// Puts the loop's first step on the runtime's scheduler, due now; once only.
  package func start() {
    scheduled.start(at: runtime.monotonicNanoseconds()) { [self] in step(&$0, now: $1) }
  }

  /// Takes the loop off the scheduler and waits until a step in progress has returned; may be
  /// called any number of times, from any thread.
  package func stop() {
    scheduled.stop()
    transmitter.stop()
  }

  /// Notes that a client opened the device that no client had open: the first one starts
  /// the timeline of a replay that waits for a client.
  package func clientArrived() {
    let now = runtime.monotonicNanoseconds()
    firstClientNanoseconds.withLock { $0 = $0 ?? now }
    clientArrivals.add(1, ordering: .releasing)
    scheduled.wake()
  }

  /// How many times a client opened the device that no client had open (seen by the loop): a
  /// harness waits for it before stepping.
  let clientArrivals = Atomic<Int>(0)

  /// What the log's reader met so far: packets of each kind, problems, packets dropped, loops
  /// (the transmitter counts what was sent, in the device's statistics).
  package var readerStatistics: ReplayStatistics {
    source.withLock { $0.statistics }
  }

  /// Why the replay stopped before the end of the log: the file could no longer be read.
  package var readFailure: InputFileError? { failure.withLock { $0 } }

  /// The most epochs one step writes or passes before it hands the thread back (due again at
  /// once): an unpaced replay that nobody reads (every epoch due at once, a looped log never
  /// ending) must still let the scheduler stop it.
  static let epochsPerStep = 256

  /// One step on the scheduler: the start of the timeline, then the writes due now and the
  /// epochs due now (at most `epochsPerStep`); returns when the next one is due, or nil once
  /// the replay is over.
  private func step(_ progress: inout Progress, now _: Int64) -> Int64? {
    if progress.start == nil {
      guard let start = startTimeline() else {
        return runtime.monotonicNanoseconds() + Self.clientRecheckNanoseconds
      }
      if start > runtime.monotonicNanoseconds() { return start }
      begin(&progress, at: start)
    }
    var epochsLeft = Self.epochsPerStep
    while epochsLeft > 0 {
      let paused = steer(&progress)
      if progress.sending == nil {
        if paused { return Int64.max }
        guard let next = takeAhead(&progress) ?? nextEpoch(progress) else {
          if endUnlessSought() { return nil }
          epochsLeft -= 1
          continue
        }
        progress.sending = next
      }
      guard var sending = progress.sending else { return nil }
      if paused, !sending.started { return Int64.max }
      if !sending.started, let due = beginIfDue(&sending, &progress, joiningUpTo: epochsLeft - 1) {
        return due
      }
      if let wait = write(&sending) {
        progress.sending = sending
        return wait
      }
      progress.sending = nil
      epochsLeft -= sending.joined.epochCount
      finish(sending)
      // The transmission let go of, the joined bytes are their storage's only holder.
      sending.transmission = nil
      sending.joined.removeAll()
      progress.spareJoined = sending.joined
    }
    return runtime.monotonicNanoseconds()
  }

  /// Starts the timeline at `start`, with what was asked before it started: paused there, or
  /// at a seek's target (found again for the start's time).
  private func begin(_ progress: inout Progress, at start: Int64) {
    progress.start = start
    transmitter.holdLine(untilNanoseconds: start)
    let utcStart = runtime.clock.now().nanoseconds + (start - runtime.monotonicNanoseconds())
    progress.liveStart = utcStart
    source.withLock { $0.begin(liveStartNanoseconds: utcStart) }
    let seconds = steering.withLock { steering -> Double? in
      steering.hasStarted = true
      steering.heldSinceNanoseconds = start
      guard let seek = steering.seek else { return nil }
      return Double(seek.landing.targetNanoseconds) / 1e9
    }
    guard let seconds else { return }
    let landing = try? source.withLock { (source) throws(ReplaySeek.Refusal) in
      try ReplaySeek.land(in: source, atSeconds: seconds, utcNowNanoseconds: utcStart)
    }
    steering.withLock { steering in
      guard let landing else {
        steering.seek = nil
        return
      }
      steering.seek = ReplaySteering.PendingSeek(
        landing: landing, startNanoseconds: start - wireNanoseconds(landing.targetNanoseconds),
        liveStartNanoseconds: utcStart - landing.targetNanoseconds)
    }
  }

  /// Applies what was asked since the last step: the paused span, then a seek unless an
  /// epoch is being written (it is finished first); returns whether the timeline is paused.
  private func steer(_ progress: inout Progress) -> Bool {
    let midEpoch = progress.sending?.started == true
    let (shift, seek, paused) = steering.withLock { steering in
      defer { steering.shiftNanoseconds = 0 }
      let seek = midEpoch ? nil : steering.seek.take()
      return (steering.shiftNanoseconds, seek, steering.isPaused)
    }
    if shift != 0, let start = progress.start {
      let held = Int64((Double(shift) * plan.timeScale).rounded())
      progress.start = Self.adding(start, shift)
      progress.liveStart = Self.adding(progress.liveStart, held)
      let liveStart = progress.liveStart
      if let sending = progress.sending, !sending.started {
        progress.sending = shifted(sending, byNanoseconds: shift, heldNanoseconds: held)
      }
      if let ahead = progress.ahead {
        // Read before the pause: under `--time now` its times move on with it.
        progress.ahead = source.withLock { $0.retimed(ahead, byNanoseconds: held) }
      }
      source.withLock { $0.begin(liveStartNanoseconds: liveStart) }
    }
    if let seek {
      progress.start = seek.startNanoseconds
      progress.liveStart = seek.liveStartNanoseconds
      let landing = seek.landing
      source.withLock { $0 = seek.handedOverSource() }
      progress.position = landing.targetNanoseconds
      // A target in the gap before the log starts again lands on the next pass's first epoch.
      let target = landing.targetNanoseconds
      let loopStart = landing.epoch.loopStartNanoseconds
      let inFile = target >= loopStart ? target - loopStart : target
      steering.withLock { $0.logOffsetNanoseconds = inFile }
      let epoch = source.withLock { $0.retimed(landing.epoch, byNanoseconds: seek.heldNanoseconds) }
      var sending = makeSending(epoch, progress)
      // The line was busy with the epoch before the seek: not the landed epoch's lateness.
      sending.due = max(sending.due, transmitter.lineFreeNanoseconds)
      progress.sending = sending
      progress.ahead = nil
    }
    return paused
  }

  /// An epoch read before a pause, not begun: due `shift` later on the monotonic clock, and
  /// (read before the pause) under `--time now` with its times moved on by `held`.
  private func shifted(_ sending: Sending, byNanoseconds shift: Int64, heldNanoseconds held: Int64)
    -> Sending
  {
    var sending = sending
    if sending.epoch.offsetNanoseconds != nil { sending.due = Self.adding(sending.due, shift) }
    sending.begin = max(sending.due, transmitter.lineFreeNanoseconds)
    sending.epoch = source.withLock { $0.retimed(sending.epoch, byNanoseconds: held) }
    return sending
  }

  /// Notes the epoch just begun as the timeline's place in the log, for `status`.
  private func note(_ epoch: ReplayEpoch, _ progress: inout Progress) {
    if let offset = epoch.offsetNanoseconds { progress.position = offset }
    let inFile = progress.position - epoch.loopStartNanoseconds
    steering.withLock { $0.logOffsetNanoseconds = inFile }
  }

  /// The start of the timeline on the monotonic clock, or nil while it waits for a client.
  private func startTimeline() -> Int64? {
    guard let settle = plan.settleAfterFirstClientNanoseconds else {
      return runtime.monotonicNanoseconds()
    }
    // The device may have seen its client before the loop was scheduled.
    if device.hasClients {
      let now = runtime.monotonicNanoseconds()
      firstClientNanoseconds.withLock { $0 = $0 ?? now }
    }
    return firstClientNanoseconds.withLock { $0 }.map { $0 + settle }
  }

  /// The next epoch of the log, or nil at its end or once it can no longer be read (the
  /// failure noted: the step then ends the replay).
  private func nextEpoch(_ progress: Progress) -> Sending? {
    guard readFailure == nil else { return nil }
    let epoch: ReplayEpoch?
    do {
      epoch = try source.withLock { (source) throws(InputFileError) in try source.next() }
    } catch {
      log.error("\(error); the replay stops here")
      failure.withLock { $0 = error }
      return nil
    }
    guard let epoch else { return nil }
    return makeSending(epoch, progress)
  }

  /// At the end of the log: ends the replay, unless a seek has come meanwhile (it was
  /// accepted, so it goes on); once the log can no longer be read, ends it whatever was asked.
  /// True when it has ended.
  private func endUnlessSought() -> Bool {
    let failed = readFailure != nil
    let ended = steering.withLock { steering -> Bool in
      guard failed || steering.seek == nil else { return false }
      steering.hasEnded = true
      return true
    }
    if ended { finished.set() }
    return ended
  }

  /// The epoch read ahead (see `Progress.ahead`), planned now.
  private func takeAhead(_ progress: inout Progress) -> Sending? {
    progress.ahead.take().map { makeSending($0, progress) }
  }

  /// The epoch to write, due at its offset on the timeline (an untimed one when the line is
  /// free).
  private func makeSending(_ epoch: ReplayEpoch, _ progress: Progress) -> Sending {
    let lineFree = transmitter.lineFreeNanoseconds
    let start = progress.start ?? lineFree
    let due = epoch.offsetNanoseconds.map { Self.adding(start, wireNanoseconds($0)) } ?? lineFree
    return Sending(epoch: epoch, due: due, begin: max(due, lineFree))
  }

  /// Begins the epoch if it is due: counts it, tells the listeners, notes its place, joins to
  /// it (unpaced) the epochs after it already due, at most `limit` of them, and plans its
  /// transmission: paced at the baud, or in one write (a recording's chunk that arrived
  /// together, or `--baud 0`). Returns when it is due while it is not yet, else nil.
  private func beginIfDue(
    _ sending: inout Sending, _ progress: inout Progress, joiningUpTo limit: Int
  ) -> Int64? {
    let now = runtime.monotonicNanoseconds()
    guard now >= sending.begin else { return sending.begin }
    markBegun(sending, &progress, now: now)
    sending.joined = progress.spareJoined
    progress.spareJoined = JoinedEpochs()
    sending.joined.append(sending.epoch)
    if plan.pacing.baud == 0 {
      joinDueEpochs(to: &sending, &progress, now: now, upTo: limit)
    }
    if sending.epoch.arrivedTogether || plan.pacing.baud == 0 {
      sending.transmission = .whole(sending.joined.bytes, atNanoseconds: now)
    } else {
      let chunks = plan.pacing.chunks(
        forLineLengths: sending.epoch.packets.map { $0.bytes.count },
        granularityNanoseconds: EpochLoop.pacingGranularityNanoseconds,
        timeScale: plan.timeScale)
      sending.transmission = Transmitter.Transmission(
        paced: PacedBurst(
          chunks: chunks, startNanoseconds: max(sending.begin, now), toleranceNanoseconds: .max),
        bytes: sending.joined.bytes)
    }
    return nil
  }

  /// Counts the epoch begun at `now` (late past `lateToleranceNanoseconds`), tells the
  /// listeners, and notes it as the timeline's place.
  private func markBegun(_ sending: Sending, _ progress: inout Progress, now: Int64) {
    let lateness = now - sending.due
    transmitter.count {
      $0.epochsDue += 1
      if lateness > Self.lateToleranceNanoseconds {
        $0.epochsLate += 1
        $0.largestLatenessNanoseconds = max($0.largestLatenessNanoseconds, lateness)
      }
    }
    listeners.notify(
      DueEpoch(
        time: runtime.clock.now(), held: ReplayedPackets(packets: sending.epoch.packets), fix: nil)
    )
    note(sending.epoch, &progress)
  }

  /// Joins to the write of `sending` the epochs read after it that are due by `now`, at most
  /// `limit` of them, within `JoinedEpochs.byteLimit`; each is begun as it joins. None joins
  /// while the control protocol has asked something that applies between epochs (a pause, a
  /// resume, a seek). The first epoch read that does not join is kept to go next.
  private func joinDueEpochs(
    to sending: inout Sending, _ progress: inout Progress, now: Int64, upTo limit: Int
  ) {
    for _ in 0..<max(limit, 0) {
      guard !steering.withLock({ $0.hasRequestPending }) else { return }
      guard let next = takeAhead(&progress) ?? nextEpoch(progress) else { return }
      guard next.begin <= now, sending.joined.hasRoom(for: next.epoch) else {
        progress.ahead = next.epoch
        return
      }
      markBegun(next, &progress, now: now)
      sending.joined.append(next.epoch)
    }
  }

  /// Has the transmitter write what is due of the epoch begun; returns when to come back, or
  /// nil once it is over.
  private func write(_ sending: inout Sending) -> Int64? {
    guard var transmission = sending.transmission else { return nil }
    defer { sending.transmission = transmission }
    switch transmitter.writeDue(&transmission, wake: { [scheduled] in scheduled.wake() }) {
    case .wait(let until): return until
    // The scheduler's thread wakes the step when the client has read.
    case .waitingForRoom: return Int64.max
    case .ended: return nil
    }
  }

  /// Counts the epochs of a write that is over (sent whole, or lost in part to a client that
  /// left); the line is busy until it has carried them.
  private func finish(_ sending: Sending) {
    let written = sending.transmission?.written ?? 0
    transmitter.count { sending.joined.count(written: written, into: &$0) }
    if let transmission = sending.transmission { transmitter.finish(transmission) }
    afterEpoch(runtime.monotonicNanoseconds())
  }

  /// Log time after the first epoch as wire time after T0.
  func wireNanoseconds(_ logNanoseconds: Int64) -> Int64 {
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
}
