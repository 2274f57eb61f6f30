import DeviceRuntime
import DeviceTerminal
import Glibc
import Receiver
import Simulation
import Synchronization
import SystemIO
import UBX

/// The receiver's heartbeat and the device's one writer: a task on its runtime's scheduler
/// (one thread for every device), each step of which asks the epoch scheduler what to do, takes
/// the epoch's bytes from the source at the epoch's simulated time when it falls due, and
/// writes them to the device as a burst paced at the baud, one chunk a step; then returns when
/// it next wants to run. Replies to commands are written by the same steps, between sentences:
/// each when the command has arrived through the line and the chip has processed it, and the
/// line is free of the sentences already on it; the burst's next chunks wait for the reply.
/// Steps never block: the device's writes do not, and a client that has not read the last
/// epoch loses the next one whole.
///
/// Under a time scale X, the scheduler plans in simulated time and the loop maps each deadline
/// to the wire: epochs keep their simulated period and leave X times as often, and the bytes
/// leave at X times the baud, so an epoch fills the same share of its period as at X = 1. When
/// the bytes no longer fit (too many sentences for the baud, or a wire period shorter than the
/// machine can keep), nothing slows down: an epoch that cannot start within its tolerance is
/// skipped and counted late, and a burst that falls behind its pacing is cut and counted.
///
/// An idle device (no client, no epoch listener) does not encode its epochs: each is counted
/// as sent without a client, as it would have been. A client that opens the device while such
/// an epoch's burst would still be on the line receives the rest of it, as from a UART: the
/// epoch is encoded then, and the bytes whose line time starts after the open are written at
/// their pace (see `BytePacing.rest(of:fromNanoseconds:timeScale:)`).
package final class EpochLoop: Sendable {
  /// What the loop works from; changed at run time by commands and the API, read once a step.
  package struct Plan: Sendable {
    package var scheduler: EpochScheduler
    package var pacing: BytePacing
    /// Any change to it counts a revision, so that an epoch prepared ahead is sent only while
    /// the source is still the one it came from.
    package var source: any EpochSource {
      didSet {
        sourceRevision &+= 1
        countsUART1Traffic = Self.countsUART1Traffic(source)
      }
    }
    package private(set) var sourceRevision = 0
    /// True when the source is a simulated chip that reports UART1's traffic (MON-COMMS):
    /// only then does an epoch's encoding need the device's counters (looked up once a change,
    /// not cast at every epoch).
    private(set) var countsUART1Traffic = false

    private static func countsUART1Traffic(_ source: any EpochSource) -> Bool {
      (source as? SceneSource)?.encoder.ubx.portTraffic.ports[UBXPortTraffic.uart1] != nil
    }
    /// The mapping of simulated time to the wire's, its wire origin already moved by the
    /// output delay's shortest (see `OutputDelay`).
    package var time: SimulatedTime
    /// The chip's output delay, whose jitter each epoch adds on top of `time`.
    package var outputDelay = OutputDelay.none
    /// The seed of that jitter.
    package var outputDelaySeed: UInt64 = 0

    package init(
      scheduler: EpochScheduler, pacing: BytePacing, source: any EpochSource, time: SimulatedTime
    ) {
      self.scheduler = scheduler
      self.pacing = pacing
      self.source = source
      self.time = time
      countsUART1Traffic = Self.countsUART1Traffic(source)
    }

    /// The wire instant, in the clock's nanoseconds, at which the epoch at `epoch` starts to
    /// leave: its mapped instant (moved by the delay less the jitter) plus its share of the
    /// jitter, from 0 to twice it.
    ///
    /// At rates where twice the jitter would exceed a quarter of the wire period, the jitter
    /// shrinks to that and its mean stays: the share is then a constant part (`jitterFloor`,
    /// which the scheduler's clock is moved by as well) and a drawn part of at most a quarter
    /// period, so that an epoch held for its draw never lets the next fall due and be skipped
    /// as late (a chip's jitter is far below its period).
    func wireStart(ofEpoch epoch: UTCInstant) -> Int64 {
      let jitter = jitterFit
      var drawn = time.wireNanoseconds(
        ofSimulated: outputDelay.extraNanoseconds(epochAt: epoch, seed: outputDelaySeed))
      if jitter.range > jitter.limit {
        drawn = Int64(Double(drawn) * Double(jitter.limit) / Double(jitter.range))
      }
      return time.wire(atSimulated: epoch).nanoseconds + jitter.floor + drawn
    }

    /// The constant part of every epoch's share of the jitter, in wire nanoseconds: 0 unless
    /// the jitter had to shrink to fit the period, then what keeps its mean.
    var jitterFloor: Int64 { jitterFit.floor }

    /// The jitter's whole range on the wire, the most of it an epoch may be held for (a quarter
    /// period), and the constant part that keeps the mean when the range exceeds that.
    private var jitterFit: (range: Int64, limit: Int64, floor: Int64) {
      let range = time.wireNanoseconds(ofSimulated: 2 * outputDelay.jitterNanoseconds)
      let limit = scheduler.wirePeriodNanoseconds / 4
      return (range, limit, range > limit ? (range - limit) / 2 : 0)
    }
  }

  /// How long before its deadline an epoch is encoded at the latest: half the wire period,
  /// which keeps the work away from the aligned instants (when bursts start). An epoch is
  /// encoded earlier, in the step that ended the epoch before (its last write, or its
  /// bookkeeping): one wake-up a period fewer, unless other devices of the runtime are due
  /// then. A change of the source since (`changePlan`)
  /// wakes the loop, which encodes it again then, or at this lead if that is later.
  static func preparingLeadNanoseconds(wirePeriodNanoseconds: Int64) -> Int64 {
    wirePeriodNanoseconds / 2
  }

  /// How soon after one encoding of an epoch ahead a change of the source encodes it again
  /// (see `stepEpochs`): a storm of control requests costs at most one encoding of a device
  /// per spacing, not one per request.
  static let reencodingSpacingNanoseconds: Int64 = 10_000_000

  /// Line time one write of a paced burst may cover: whole sentences, grouped up to 40 ms,
  /// each written when its last byte would have arrived on the line. Writing every byte would
  /// cost a wake-up a millisecond, and a wake-up costs about 45 µs of CPU on a VM.
  static let pacingGranularityNanoseconds: Int64 = 40_000_000

  /// An epoch's burst being written, a chunk a step.
  /// A class, so that a step moves one reference, not the arrays inside.
  private final class Burst {
    var transmission: Transmitter.Transmission
    /// Packets of the epoch, for the counters.
    let packetCount: Int
    /// The epoch was at or after the source's end.
    let endsSource: Bool
    /// The epoch for the listeners, until they are told (after the first write, so that
    /// they do not delay it).
    var notice: DueEpoch?
    /// The rest of an epoch already counted (without a client) for a client that opened in
    /// the middle of its burst.
    let isRest: Bool
    /// Its first write waited for the I/O thread to look at a client that came or went.
    var waitedForClientLook = false

    /// The paced burst of an epoch's bytes.
    init(
      paced: PacedBurst, bytes: [UInt8], packetCount: Int, endsSource: Bool, notice: DueEpoch?,
      isRest: Bool = false
    ) {
      transmission = Transmitter.Transmission(paced: paced, bytes: bytes)
      transmission.waitsForRoom = bytes.count > SerialDevice.unreadCapacity
      self.packetCount = packetCount
      self.endsSource = endsSource
      self.notice = notice
      self.isRest = isRest
    }
  }

  /// The last epoch that fell due while no client had the device open: a client that opens
  /// while its burst would still be on the line gets the rest of it.
  private struct MissedEpoch {
    let time: UTCInstant
    /// Monotonic nanoseconds when it was due.
    let due: Int64
    /// The epoch, when it was encoded anyway (for listeners).
    let prepared: PreparedEpoch?
    /// A client had the terminal open when it fell due, not yet seen by the device: it gets
    /// the whole epoch.
    let clientWasThere: Bool
  }

  /// What the steps carry from one to the next; only steps touch it (see `ScheduledStep`).
  private struct Progress {
    var prepared: PreparedEpoch?
    var burst: Burst?
    /// The last epoch due without a client, until the next one falls due.
    var missed: MissedEpoch?
    /// An epoch the scheduler has given, held until its share of the output delay's jitter is
    /// over (then sent whatever the scheduler would say of it: the jitter is not lateness).
    var held: UTCInstant?
    /// The simulated instant of the last restart that cut the output: an epoch of that instant
    /// or before, not yet out (the output delay holds it), is not sent after it.
    var cutThrough: UTCInstant?
    /// Replies handed over, waiting for their time and for the line, in order.
    var replies = PendingReplies()
    /// The device showed a client when this step began. Only such a client is written to in
    /// the step: one that opens during it is the I/O thread's news, and the power-up
    /// sentences its arrival queues reach the next step, which must send them before any
    /// epoch.
    var clientSeenAtStart = false
    /// Monotonic nanoseconds of the last encoding of an epoch ahead of its deadline.
    var lastPreparedNanoseconds: Int64 = .min / 2
  }

  /// What crosses between the steps and the other threads, under one lock: the work the I/O
  /// thread and commands hand to the steps (each taken whole by the next step, which they
  /// wake), and what the steps report to them.
  private struct Handover {
    /// Replies queued since the last step, in order.
    var replies: [PendingReply] = []
    /// Set by a restart that cuts the output, to its simulated instant: the next step drops
    /// the replies and the rest of the burst, and the epochs of that instant or before.
    var outputCut: UTCInstant?
    /// True until the power-up sentences have been queued: once, for the first client.
    var powerUpPending = true
    /// The power-up sentences were queued since the last step: the chip has just powered up,
    /// so no epoch of before is on its line (its rest would follow the banner as a sentence's
    /// tail).
    var poweredUp = false
    /// Monotonic nanoseconds when the device last saw a client open it that no client had
    /// open.
    var lastArrival: Int64 = .min
    /// Reported by the steps: the time of the last epoch due, sent or not (a poll of a NAV
    /// message reports its fix).
    var lastEpochTime: UTCInstant?
  }

  /// The device written to.
  let device: SerialDevice
  /// The device's transmit path: pacing, admission (`dropEpoch`, as a UART overruns), the
  /// counters and the listeners.
  package let transmitter: Transmitter
  package let plan: Mutex<Plan>
  private let handover = Mutex(Handover())
  /// How long the chip takes from a command's arrival to its answer, in simulated time.
  private let processingNanoseconds: Int64

  /// A reply waiting for its time and for the line.
  private typealias PendingReply = PendingReplies.Reply
  /// Called after each epoch with the monotonic time, for housekeeping such as the link guard.
  private let afterEpoch: @Sendable (Int64) -> Void
  /// Set once an epoch at or after the source's end has been sent.
  package let finished = FinishLatch()
  /// Told of every epoch as it falls due (control subscribers, network outputs): the
  /// transmitter's.
  var listeners: EpochListeners { transmitter.listeners }
  /// How many times a client opened the device that no client had open (its power-up was
  /// queued then).
  let clientArrivals = Atomic<Int>(0)
  /// How many replies were queued, power-up sentences included, or dropped at once because the
  /// chip's transmit buffer was full; a command's replies count once all its effects are
  /// applied, so that one who sees them counted finds the rest in force.
  package let repliesQueued = Atomic<Int>(0)
  /// The bytes of replies due and waiting for the line as the last step left them (the
  /// transmit buffer's fill): while they fill it (`PendingReplies.fullBytes`), a command's
  /// answer is dropped before it is made (a client polling without end made and queued
  /// answers only for the step to drop them: a third of the I/O thread's time in such a
  /// flood). The step's own bound is exact.
  private let replyBytesWaiting = Atomic<Int>(0)
  /// What the chip sends when it powers up, without line endings.
  private let powerUpSentences: [String]
  /// How many restarts were applied to the source.
  package let restartsApplied = Atomic<Int>(0)
  /// Told of each change the chip makes to its scene source (a command's: its sky, its rover,
  /// a restart), under the plan's lock, so that whoever builds sources on a copy of it (the
  /// control socket's `LiveControls`) makes the change there too.
  private let chipChangeFollower = Mutex<ChipChangeFollower?>(nil)

  /// What `followChipChanges(_:)` is given: it applies a change to its copy of the source, a
  /// restart's with the restart's instant.
  package typealias ChipChangeFollower =
    @Sendable (_ change: (inout SceneSource) -> Void, _ restartedAt: UTCInstant?) -> Void
  private let runtime: EmulatorRuntime
  private let log: Log
  private let scheduled: ScheduledStep<Progress>

  /// A loop that answers a command `processingNanoseconds` (simulated time) after it arrived,
  /// and sends `powerUpSentences` (text without line ending) to the first client.
  package init(
    plan: Plan, device: SerialDevice, log: Log, runtime: EmulatorRuntime,
    processingNanoseconds: Int64 = 0, powerUpSentences: [String] = [],
    afterEpoch: @escaping @Sendable (Int64) -> Void = { _ in }
  ) {
    self.processingNanoseconds = processingNanoseconds
    self.powerUpSentences = powerUpSentences
    self.plan = Mutex(plan)
    self.device = device
    transmitter = Transmitter(device: device, admission: .dropEpoch, runtime: runtime)
    self.log = log
    self.runtime = runtime
    scheduled = ScheduledStep(on: runtime.scheduler, state: Progress())
    self.afterEpoch = afterEpoch
  }

  /// Puts the loop's first step on the runtime's scheduler, due now; once only.
  package func start() {
    scheduled.start(at: runtime.monotonicNanoseconds()) { [self] in step(&$0, now: $1) }
  }

  /// Takes the loop off the scheduler and waits until a step in progress has returned; may be
  /// called any number of times, from any thread.
  package func stop() {
    // A burst still being written was cut short by the stop: counted like any other.
    scheduled.stop { [transmitter] progress in
      guard progress.burst.take() != nil else { return }
      transmitter.count { $0.burstsCut += 1 }
    }
    transmitter.stop()
  }

  /// Epochs whose time has come so far: each is counted once, sent or in one of the device's
  /// other counters (exactly so once the loop has stopped).
  package var epochsDue: Int { plan.withLock { $0.scheduler.epochsDue } }

  /// Runs the next step now (a reply is waiting, or the plan changed).
  private func wake() {
    scheduled.wake()
  }

  /// Changes the plan (a command's effect, the API, a control request) and, when that changed
  /// the source, wakes the loop: an epoch encoded ahead from the old source is encoded again
  /// before its deadline (now, or half a period ahead), not at the deadline, where it would
  /// delay the epoch's first byte. The loop is woken after the lock is let go.
  package func changePlan<Result>(_ change: (inout Plan) -> Result) -> Result {
    let (result, sourceChanged) = plan.withLock { plan in
      let revision = plan.sourceRevision
      let result = change(&plan)
      return (result, plan.sourceRevision != revision)
    }
    if sourceChanged { wake() }
    return result
  }

  /// Queues a reply to a command; it leaves at the first gap between sentences at or after
  /// `notBeforeNanoseconds` (monotonic; now by default), after the replies queued before, and
  /// its sentences are noted for the echo filter (a client that echoes them would otherwise
  /// send each reply back as a command, and be answered again, without end).
  func send(reply: [UInt8], notBeforeNanoseconds: Int64 = .min) {
    device.willSend(packets: reply.split(separator: 0x0A).map { Array($0) })
    handover.withLock { $0.replies.append(PendingReply(bytes: reply, due: notBeforeNanoseconds)) }
    wake()
  }

  /// Called when a client opens the device no client had open: the first one after start
  /// gets the sentences the chip sends when it powers up (text without line ending), before
  /// the next epoch, their echo recognised; later ones do not, since closing the port resets
  /// nothing on a real chip.
  ///
  /// The chip is taken to power up when its first client opens it (a USB receiver is plugged
  /// in as its port appears), whenever that is: a banner sent before anyone listens would be
  /// lost to every client, and the banner is what some hosts identify the chip by.
  package func powerUp() {
    let now = runtime.monotonicNanoseconds()
    handover.withLock { $0.lastArrival = now }
    defer { clientArrivals.add(1, ordering: .releasing) }
    queuePowerUpSentences()
    // The step sees the client: the rest of an epoch on the line may be its.
    wake()
  }

  /// Queues the power-up sentences the first time it is called, from the I/O thread that saw
  /// the first client open or from a step that saw it first: the device shows its client
  /// before the I/O thread reports it, and an epoch must not go out ahead of the banner (a full
  /// run once showed one first).
  private func queuePowerUpSentences() {
    guard !powerUpSentences.isEmpty else { return }
    let reply = Array(powerUpSentences.map { $0 + "\r\n" }.joined().utf8)
    // Claimed and queued under one lock: a step that finds it claimed finds it queued (and a
    // step writes epochs only to a client it saw at its start, after queuing the sentences
    // for it). Its sentences are noted for the echo filter before any step can write them.
    let queued = handover.withLock { handover in
      guard handover.powerUpPending else { return false }
      handover.powerUpPending = false
      device.willSend(packets: reply.split(separator: 0x0A).map { Array($0) })
      handover.replies.append(PendingReply(bytes: reply, due: .min))
      handover.poweredUp = true
      return true
    }
    guard queued else { return }
    repliesQueued.add(1, ordering: .releasing)
    wake()
  }

  /// Applies what a command handler asked for: replies leave at the first gap between
  /// sentences once the chip has processed the command that arrived at `arrivedNanoseconds`
  /// (monotonic; now by default), and a new rate, baud or sentence set holds from the next
  /// epoch on. Rate, baud and processing time are the simulated receiver's; the time scale
  /// applies to them on the wire, and a rate the scale would push past
  /// `WireRateLimit.maximumWireRateHz` is lowered to the fastest allowed, with a warning.
  /// The replies are counted once every effect is applied, so that a client that has its
  /// replies sees the command's effects in force.
  package func apply(_ effects: [ReceiverEffect], arrivedNanoseconds: Int64? = nil) {
    let processing = plan.withLock { $0.time.wireNanoseconds(ofSimulated: processingNanoseconds) }
    let replyDue = (arrivedNanoseconds ?? runtime.monotonicNanoseconds()) + processing
    var replies = 0
    defer { repliesQueued.add(replies, ordering: .releasing) }
    let transmitBufferFull =
      replyBytesWaiting.load(ordering: .acquiring) > PendingReplies.fullBytes
    for effect in effects {
      if effect.isReply, transmitBufferFull {
        transmitter.count { $0.repliesDropped += 1 }
        replies += 1
        continue
      }
      switch effect {
      case .reply(let bytes):
        send(reply: bytes, notBeforeNanoseconds: replyDue)
        replies += 1
      case .replyFromEpoch(let type):
        let source = plan.withLock { $0.source as? SceneSource }
        // Before the first epoch (a poll right after the start), the fix of now.
        let time = handover.withLock { $0.lastEpochTime } ?? simulatedNow()
        if let source, let bytes = source.encoder.reply(type, for: source.fix(at: time)) {
          send(reply: bytes, notBeforeNanoseconds: replyDue)
          replies += 1
        }
      case .setRate(let cadence):
        let (applied, timeScale) = plan.withLock { plan in
          let applied = plan.scheduler.change(cadence: cadence)
          if var source = plan.source as? SceneSource {
            source.epochPeriodNanoseconds = applied.periodNanoseconds
            plan.source = source
          }
          return (applied, plan.scheduler.timeScale)
        }
        if applied != cadence {
          log.warning(
            "\(WireRateLimit.TooFastError(cadence: cadence, timeScale: timeScale)); "
              + "sending at \(applied.rateText) Hz")
        }
        wake()
      case .setBaud(let pacing):
        plan.withLock { $0.pacing = pacing }
        device.setBaud(pacing.baud)
      case .setOutput(let output):
        updateScene { $0.encoder.output = output }
      case .setDialect(let dialect):
        updateScene { $0.encoder.write(dialect: dialect) }
      case .setPortTraffic(let traffic):
        updateScene { $0.encoder.ubx.portTraffic = traffic }
      case .setTracking(let systems, let sbasPRNs):
        updateScene { $0.track(systems, sbasPRNs: sbasPRNs) }
      case .useCorrections(let input):
        let now = simulatedNow()
        updateScene { $0.rover.receive(input, at: now) }
      case .setRover(let settings):
        updateScene { $0.rover.settings = settings }
      case .setBase(let settings):
        let now = simulatedNow()
        updateScene { $0.configureBase(settings, at: now) }
      case .restart(let restart):
        restartChip(restart)
      }
    }
  }

  /// Has `follower` told of each change the chip makes to its scene source from now on.
  package func followChipChanges(_ follower: @escaping ChipChangeFollower) {
    chipChangeFollower.withLock { $0 = follower }
  }

  /// Changes the simulated receiver's scene source (its encoder, its sky) from the next epoch
  /// on; another source (a replay) has no chip to change.
  private func updateScene(_ change: (inout SceneSource) -> Void) {
    changePlan { plan in _ = changeChip(of: &plan, change) }
  }

  /// Makes a change of the chip's in the plan's scene source, and tells the follower; nil when
  /// the source is not a scene.
  @discardableResult
  private func changeChip(
    of plan: inout Plan, restartedAt: UTCInstant? = nil, _ change: (inout SceneSource) -> Void
  ) -> SceneSource? {
    guard var source = plan.source as? SceneSource else { return nil }
    change(&source)
    plan.source = source
    chipChangeFollower.withLock { $0 }?(change, restartedAt)
    return source
  }

  /// Restarts the simulated chip now (see `SceneSource.restart(_:at:)`): its silence, its
  /// power-up sentences and its search for a first fix hold from the next epoch on. Another
  /// source (a replay has its own loop) has no chip to restart.
  ///
  /// A restart that powers up makes the chip deaf while it boots: what clients write until
  /// it is up again is lost.
  private func restartChip(_ restart: ReceiverRestart) {
    let now = simulatedNow()
    let bootNanoseconds = plan.withLock { plan -> Int64? in
      guard
        let source = changeChip(of: &plan, restartedAt: now, { $0.restart(restart, at: now) })
      else {
        return nil
      }
      let boot = restart.powersUp ? source.encoder.profile.restartTiming.powerUpNanoseconds : 0
      return plan.time.wireNanoseconds(ofSimulated: boot)
    }
    if restart.cutsOutput {
      // The chip stops mid-sentence: what it had not sent yet is lost.
      handover.withLock { handover in
        handover.replies.removeAll()
        handover.outputCut = now
      }
    }
    if let bootNanoseconds {
      if bootNanoseconds > 0 {
        device.stopListening(untilNanoseconds: runtime.monotonicNanoseconds() + bootNanoseconds)
      }
    } else {
      log.warning("restart (\(restart.start)) ignored: the source has no chip")
    }
    restartsApplied.add(1, ordering: .releasing)
    wake()
  }

  /// The simulated time now, for a control request.
  package func simulatedNow() -> UTCInstant {
    plan.withLock { $0.time.simulated(atWire: runtime.clock.now()) }
  }

  /// One step on the scheduler: replies waiting, the chunks of the burst due now, and the
  /// epochs due now; returns when the next chunk or epoch is due.
  private func step(_ progress: inout Progress, now _: Int64) -> Int64 {
    progress.clientSeenAtStart = device.hasClients
    if progress.clientSeenAtStart { queuePowerUpSentences() }
    let handed = handover.withLock { handover in
      defer {
        handover.replies.removeAll()
        handover.outputCut = nil
        handover.poweredUp = false
      }
      return handover
    }
    if let cut = handed.outputCut {
      // The replies queued before the cut were dropped with it; those handed over are after.
      progress.replies.removeAll()
      cutBurst(&progress, through: cut)
    }
    for reply in handed.replies { progress.replies.append(reply) }
    // A chip that powers up as its first client opens has nothing of before on the line: the
    // rest of an epoch that fell due without a client would reach the client after the banner,
    // a sentence's tail between whole ones (seen: the F9P's "A,A*7E" after its TXT lines).
    if handed.poweredUp { progress.missed = nil }
    let nextReply = writePendingReplies(&progress)
    replyBytesWaiting.store(progress.replies.dueByteCount, ordering: .releasing)
    // A burst started by this step may hold the line past `nextReply`: the reply's step then
    // waits for it.
    return min(stepEpochs(&progress), nextReply ?? .max)
  }

  /// Drops what the chip had not sent when a restart at simulated `instant` cut its output: the
  /// rest of the burst on the line (what was written holds the line for its time; its listeners
  /// are told of it), what was kept for a client that opens later, and (in `stepEpochs`) the
  /// epochs of that instant or before that the output delay holds; each epoch dropped is
  /// counted cut short.
  private func cutBurst(_ progress: inout Progress, through instant: UTCInstant) {
    progress.missed = nil
    progress.prepared = nil
    progress.cutThrough = instant
    guard let burst = progress.burst.take() else { return }
    transmitter.finish(burst.transmission)
    guard !burst.isRest else { return }
    if let notice = burst.notice.take() {
      let paced = burst.transmission.paced
      let started = paced.firstWriteNanoseconds ?? runtime.monotonicNanoseconds()
      tell(notice, lateNanoseconds: started - paced.startNanoseconds)
    }
    transmitter.count { $0.burstsCut += 1 }
    finish(endsSource: burst.endsSource)
  }

  /// The epochs' part of a step: the chunks of the burst due now, and the epochs due now;
  /// returns when the next chunk or epoch is due.
  private func stepEpochs(_ progress: inout Progress) -> Int64 {
    // An epoch ended in this step: the next one is encoded now, not in a wake-up of its own.
    var epochEnded = false
    while true {
      let monotonicNow = runtime.monotonicNanoseconds()
      if progress.burst == nil, progress.missed != nil, hasClient(progress),
        let missed = progress.missed.take()
      {
        progress.burst = rest(of: missed)
      }
      if progress.burst != nil {
        if let wait = continueBurst(&progress.burst) {
          return wait
        }
        epochEnded = true
        continue
      }
      let now = runtime.clock.now()
      // One conversion for every device of the runtime: those due at the same instant get the
      // same deadline, and take their turns in the same order each period.
      func monotonic(atWire wire: Int64) -> Int64 {
        runtime.monotonicNanoseconds(
          atUTC: wire, utcNow: now.nanoseconds, monotonicNow: monotonicNow)
      }
      let action: EpochScheduler.Action
      let current: EpochPlanReading
      // The wire instant of the epoch the action names (the one due, or the next), read under
      // the same lock: one lock before an epoch's first write, not two.
      let actionWireStart: Int64
      if let held = progress.held {
        action = .send(epoch: held)
        (current, actionWireStart) = plan.withLock { ($0.reading, $0.wireStart(ofEpoch: held)) }
      } else {
        let step: EpochScheduler.Step
        (step, current, actionWireStart) = plan.withLock { plan in
          // A scaled run starts at its start at the next whole wire second: until then it
          // waits for the start instead of sending the simulated moments before it.
          let wire = now.adding(nanoseconds: -plan.jitterFloor)
          let simulated = max(
            plan.time.simulated(atWire: wire), plan.time.simulatedOrigin.adding(nanoseconds: -1))
          let step = plan.scheduler.step(now: simulated)
          return (step, plan.reading, plan.wireStart(ofEpoch: step.action.instant))
        }
        if step.skippedEpochs > 0 || step.replanned {
          transmitter.count {
            $0.epochsLate += step.skippedEpochs
            $0.clockStepsBack += step.replanned ? 1 : 0
          }
        }
        action = step.action
      }
      // An epoch from before a restart that cut the output never leaves; the first one after
      // it ends the cut.
      if case .send(let epoch) = action, let through = progress.cutThrough {
        guard epoch > through else {
          progress.held = nil
          transmitter.count { $0.burstsCut += 1 }
          finish(endsSource: current.endTime.map { epoch >= $0 } ?? false)
          continue
        }
        progress.cutThrough = nil
      }
      // An epoch due whose jitter holds it a little longer waits for its own instant.
      let wireDue = actionWireStart
      if case .send(let epoch) = action {
        if wireDue > now.nanoseconds {
          progress.held = epoch
          return monotonic(atWire: wireDue)
        }
        progress.held = nil
      }
      switch action {
      case .wait(let deadline):
        let wireDeadline = monotonic(atWire: actionWireStart)
        if !isIdle, progress.prepared?.isEpoch(at: deadline, of: current) != true {
          let prepareAt =
            wireDeadline
            - Self.preparingLeadNanoseconds(wirePeriodNanoseconds: current.wirePeriodNanoseconds)
          // Encoded now, after its epoch ended, unless other devices of the runtime are due
          // now: their epochs' first writes would wait for it (1,000 devices at 10 Hz: an
          // encoding of ~25 µs after each write, in front of the next device's). At the lead
          // the thread encodes them all in one wake-up.
          if monotonicNow < prepareAt,
            !epochEnded || runtime.scheduler.hasOthersDue(byNanoseconds: monotonicNow)
          {
            return prepareAt
          }
          // A source that keeps changing past the lead (a storm of control requests, each of
          // which wakes the loop) is encoded again at most once a spacing; the deadline
          // encodes a change that came since. Only an epoch encoded already is encoded
          // "again": one put off to the lead above is encoded there, also when the period is
          // under the spacing (a wire rate over 100 Hz, where the spacing fell on the
          // deadline and the encoding came in front of the first write).
          let spaced = progress.lastPreparedNanoseconds + Self.reencodingSpacingNanoseconds
          if monotonicNow < spaced, !epochEnded, progress.prepared != nil {
            return min(spaced, wireDeadline)
          }
          progress.prepared = prepare(deadline)
          progress.lastPreparedNanoseconds = monotonicNow
        }
        return wireDeadline
      case .send(let epochTime):
        let due = monotonic(atWire: wireDue)
        let endsSource = current.endTime.map { epochTime >= $0 } ?? false
        handover.withLock { $0.lastEpochTime = epochTime }
        let prepared = progress.prepared.take()
        progress.missed = nil
        guard !isIdle else {
          tellFixOnly(epochTime, lateNanoseconds: runtime.monotonicNanoseconds() - due)
          transmitter.count { $0.epochsWithoutClient += 1 }
          progress.missed = MissedEpoch(
            time: epochTime, due: due, prepared: nil,
            clientWasThere: device.terminalShowsClient())
          finish(endsSource: endsSource)
          continue
        }
        let ready =
          prepared.flatMap { $0.isEpoch(at: epochTime, of: current) ? $0 : nil }
          ?? prepare(epochTime)
        ready.plan(pacing: current.pacing, timeScale: current.time.scale)
        progress.burst = startBurst(
          ready, due: due, tolerance: current.lateToleranceNanoseconds, endsSource: endsSource,
          clientSeen: hasClient(progress))
        if progress.burst == nil {
          epochEnded = true
          if !hasClient(progress) {
            progress.missed = MissedEpoch(
              time: epochTime, due: due, prepared: ready,
              clientWasThere: device.terminalShowsClient())
          }
          tell(ready.notice, lateNanoseconds: runtime.monotonicNanoseconds() - due)
          finish(endsSource: endsSource)
        }
      }
    }
  }

  /// Makes the epoch at `time` ready to be written: encoded from the current source, its
  /// writes planned, its sentences noted for the echo filter (noted ahead, an epoch that is
  /// then not sent only widens what is recognised as echo) and the clients' unread bytes read.
  /// A periodic MON-COMMS counts UART1's bytes up to when the epoch is encoded (the end of the
  /// one before), not up to the last command.
  private func prepare(_ time: UTCInstant) -> PreparedEpoch {
    var (source, revision, pacing, timeScale, countsTraffic) = plan.withLock {
      ($0.source, $0.sourceRevision, $0.pacing, $0.time.scale, $0.countsUART1Traffic)
    }
    if countsTraffic, var scene = source as? SceneSource,
      var port = scene.encoder.ubx.portTraffic.ports[UBXPortTraffic.uart1]
    {
      let counted = device.currentStatistics
      port.receivedBytes = counted.clientBytesReceived
      port.skippedBytes = counted.clientBytesDiscarded
      port.sentBytes = counted.bytesSent
      scene.encoder.ubx.portTraffic.ports[UBXPortTraffic.uart1] = port
      source = scene
    }
    let prepared = PreparedEpoch(
      time: time, source: source, sourceRevision: revision, pacing: pacing, timeScale: timeScale,
      readUnread: device.readUnread(toAdmit:))
    device.willSend(packets: prepared.epoch.packets)
    return prepared
  }

  /// No client has the device open and no listener needs the epochs' packets: nothing to
  /// encode (listeners of the fix only are told of it, `tellFixOnly`).
  private var isIdle: Bool { !device.hasClients && !listeners.needPackets }

  /// Tells the listeners of the fix only (an idle device has no other) of the epoch at `time`:
  /// its fix, without its packets.
  private func tellFixOnly(_ time: UTCInstant, lateNanoseconds: Int64) {
    guard !listeners.isEmpty else { return }
    let source = plan.withLock { $0.source }
    tell(
      DueEpoch(time: time, packets: [], fix: source.reportedFix(at: time)),
      lateNanoseconds: lateNanoseconds)
  }

  /// A client has the device open that the step saw at its start.
  private func hasClient(_ progress: Progress) -> Bool {
    progress.clientSeenAtStart && device.hasClients
  }

  /// After an epoch has been sent, or dropped.
  private func finish(endsSource: Bool) {
    if endsSource { finished.set() }
    afterEpoch(runtime.monotonicNanoseconds())
  }

  /// Tells the listeners of an epoch that started `lateNanoseconds` after it was due.
  private func tell(_ notice: DueEpoch, lateNanoseconds: Int64) {
    var notice = notice
    notice.lateNanoseconds = lateNanoseconds
    listeners.notify(notice)
  }

  /// Starts the paced burst of one epoch timed from when it was due, or nil when it is not
  /// sent (no client the step has seen, or the client has not read the last one: the
  /// transmitter drops the epoch). Its first write waits until the line has carried the epoch
  /// before. `tolerance` is how late a write may be; an epoch whose first write would be later
  /// than that is skipped as late.
  private func startBurst(
    _ epoch: PreparedEpoch, due: Int64, tolerance: Int64, endsSource: Bool, clientSeen: Bool
  ) -> Burst? {
    guard clientSeen else {
      transmitter.count { $0.epochsWithoutClient += 1 }
      return nil
    }
    guard transmitter.admitEpoch(byteCount: epoch.bytes.count, after: epoch.unread) else {
      return nil
    }
    let paced = PacedBurst(
      chunks: epoch.chunks, startNanoseconds: due, toleranceNanoseconds: tolerance,
      notBeforeNanoseconds: transmitter.lineFreeNanoseconds)
    return Burst(
      paced: paced, bytes: epoch.bytes, packetCount: epoch.epoch.packets.count,
      endsSource: endsSource, notice: epoch.notice)
  }

  /// The burst of the rest of an epoch that fell due without a client, for the client that
  /// opened since (or had opened, unseen, by then): the bytes whose line time starts after
  /// the open, at their pace; nil when none are left.
  private func rest(of missed: MissedEpoch) -> Burst? {
    let current = plan.withLock { $0.reading }
    let arrival = handover.withLock { $0.lastArrival }
    guard missed.clientWasThere || arrival >= missed.due else { return nil }
    let opened = missed.clientWasThere ? missed.due : arrival
    let epoch =
      missed.prepared.flatMap { $0.isEpoch(at: missed.time, of: current) ? $0 : nil }
      ?? prepare(missed.time)
    epoch.plan(pacing: current.pacing, timeScale: current.time.scale)
    let chunks = current.pacing.rest(
      of: epoch.chunks, fromNanoseconds: opened - missed.due, timeScale: current.time.scale)
    guard !chunks.isEmpty else { return nil }
    let paced = PacedBurst(
      chunks: chunks, startNanoseconds: missed.due,
      toleranceNanoseconds: current.lateToleranceNanoseconds,
      notBeforeNanoseconds: transmitter.lineFreeNanoseconds)
    return Burst(
      paced: paced, bytes: epoch.bytes, packetCount: epoch.epoch.packets.count,
      endsSource: false, notice: nil, isRest: true)
  }

  /// Writes the chunks of the burst due now through the transmitter; returns when the next one
  /// is due, or nil once the burst is over (then counted, `burst` nil, and the line busy until
  /// it has carried it).
  ///
  /// The step that writes the burst's first chunk ends there and asks to run again at once:
  /// the scheduler runs the other devices' steps due at the same instant first (their
  /// deadlines are earlier), so that every device's first byte leaves before any device's
  /// bookkeeping. The listeners are told of the epoch in the step after its first write, or
  /// when it is over.
  private func continueBurst(_ burst: inout Burst?) -> Int64? {
    guard let current = burst else { return nil }
    let firstWrite = current.transmission.paced.writtenCount == 0
    // A client that opened (or closed) just before the epoch, not yet looked at: the look may
    // discard what is unread for it, and must come before the epoch's first bytes, not after.
    // The I/O thread looks now and wakes the step; the burst keeps its pace from its start.
    if firstWrite, !current.waitedForClientLook, device.hasUnseenClientChange() {
      current.waitedForClientLook = true
      device.lookAtClients { [scheduled] in scheduled.wake() }
      return .max
    }
    let progress = transmitter.writeDue(
      &current.transmission, yieldingAfterFirstWrite: firstWrite
    ) { [scheduled] in scheduled.wake() }
    let paced = current.transmission.paced
    if (paced.writtenCount > 0 && !firstWrite) || progress.isOver,
      let notice = current.notice.take()
    {
      let started = paced.firstWriteNanoseconds ?? runtime.monotonicNanoseconds()
      tell(notice, lateNanoseconds: started - paced.startNanoseconds)
    }
    switch progress {
    case .wait(let until):
      return until
    case .waitingForRoom:
      // An epoch longer than the client's queue: the step is woken when the client has room.
      return .max
    case .ended(let outcome):
      burst = nil
      transmitter.finish(current.transmission)
      // The rest of an epoch: counted (without a client) when it fell due.
      guard !current.isRest else {
        if outcome == .done { transmitter.count { $0.epochRestsSent += 1 } }
        return nil
      }
      switch outcome {
      case .done:
        transmitter.count {
          $0.epochsSent += 1
          $0.packetsSent += current.packetCount
        }
      case .fellBehind(let nothingSent):
        // Nothing written: the whole epoch came too late; else the burst fell behind midway.
        transmitter.count { statistics in
          if nothingSent {
            statistics.epochsLate += 1
          } else {
            statistics.burstsCut += 1
            statistics.burstsFellBehind += 1
          }
        }
      case .writeFailed:
        // A write failed midway (the client left, or its queue filled): the rest is dropped.
        transmitter.count { $0.burstsCut += 1 }
      }
      finish(endsSource: current.endsSource)
      return nil
    }
  }

  /// Writes the replies whose time has come, in order, each once the line has carried what
  /// was written before it (a burst's chunk already written is never split), at its pace: the
  /// burst's next chunk and the next burst wait for it. Returns when the next reply may leave,
  /// nil when none waits.
  private func writePendingReplies(_ progress: inout Progress) -> Int64? {
    guard !progress.replies.isEmpty else { return nil }
    let (pacing, timeScale) = plan.withLock { ($0.pacing, $0.time.scale) }
    let overflow = progress.replies.dropOverflow(now: runtime.monotonicNanoseconds())
    if overflow > 0 { transmitter.count { $0.repliesDropped += overflow } }
    while true {
      let now = runtime.monotonicNanoseconds()
      let lineFree = max(
        transmitter.lineFreeNanoseconds,
        progress.burst?.transmission.paced.lineFreeNanoseconds ?? .min)
      guard let first = progress.replies.first else { return nil }
      let start = max(first.due, lineFree)
      if start > now { return start }
      let reply = progress.replies.removeFirst()
      guard device.admit(byteCount: reply.bytes.count) == .accepted,
        device.transmit(reply.bytes[...], afterIdle: lineFree < now, thenIdle: true)
      else { continue }
      transmitter.count { $0.repliesSent += 1 }
      let end = now + pacing.wireNanoseconds(ofBytes: reply.bytes.count, timeScale: timeScale)
      transmitter.holdLine(untilNanoseconds: end)
      progress.burst?.transmission.paced.holdLine(untilNanoseconds: end)
    }
  }
}

extension ReceiverEffect {
  /// An answer the chip sends, which a full transmit buffer drops.
  fileprivate var isReply: Bool {
    switch self {
    case .reply, .replyFromEpoch: true
    default: false
    }
  }
}

extension EpochScheduler.Action {
  /// The simulated instant the action names: the epoch to send, or the one to wait for.
  fileprivate var instant: UTCInstant {
    switch self {
    case .send(let epoch): epoch
    case .wait(let deadline): deadline
    }
  }
}
