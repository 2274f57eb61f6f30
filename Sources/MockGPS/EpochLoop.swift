import Glibc
import Receiver
import Simulation
import Synchronization
import SystemIO

/// The receiver's heartbeat: on its own thread, sleeps until each epoch of the cadence plan
/// (absolute deadlines on the real-time clock), builds the epoch's sentences from the scene at the
/// scheduled time, and writes them to the device as a burst paced at the baud.
final class EpochLoop: Sendable {
  /// The last part of a wait is a precise absolute sleep; before that, a wait longer than
  /// `interruptibleAfterNanoseconds` is spent in `poll`, which `stop()` interrupts at once.
  /// A wake-up costs about 45 µs of CPU on a VM, so an epoch has few of them.
  static let preciseSleepNanoseconds: Int64 = 3_000_000
  static let interruptibleAfterNanoseconds: Int64 = 50_000_000
  /// The longest `poll` wait: the kernel may add 0.1 % of a timeout as slack, which must stay
  /// below `preciseSleepNanoseconds`.
  static let longestPollMilliseconds: Int64 = 1000
  /// Line time one write of a paced burst may cover: whole sentences, grouped up to 40 ms,
  /// each written when its last byte would have arrived on the line. Writing every byte would
  /// cost a wake-up a millisecond.
  static let pacingGranularityNanoseconds: Int64 = 40_000_000

  let cadence: CadencePlan
  let pacing: BytePacing
  let encoder: EpochEncoder
  let device: SerialDevice
  let scene: Mutex<Scene>
  /// Called on the loop's thread after each epoch, for housekeeping such as the link guard.
  private let afterEpoch: @Sendable (Int64) -> Void
  private let clock = SystemUTCClock()
  private let thread: StoppableThread

  init(
    cadence: CadencePlan, pacing: BytePacing, encoder: EpochEncoder, device: SerialDevice,
    scene: Scene, afterEpoch: @escaping @Sendable (Int64) -> Void = { _ in }
  ) throws(SystemError) {
    self.afterEpoch = afterEpoch
    thread = try StoppableThread(name: "mockgps-epochs")
    self.cadence = cadence
    self.pacing = pacing
    self.encoder = encoder
    self.device = device
    self.scene = Mutex(scene)
  }

  func start() throws(SystemError) {
    try thread.start { [self] in
      Self.raisePriorityIfAllowed()
      run()
    }
  }

  /// Stops the loop and waits until its thread has returned.
  func stop() {
    thread.stop()
  }

  private func run() {
    var deadline = cadence.nextEpoch(after: clock.now())
    while true {
      switch sleep(until: deadline) {
      case .stopped:
        return
      case .clockSteppedBack:
        deadline = cadence.nextEpoch(after: clock.now())
        continue
      case .reached:
        break
      }
      emitEpoch(at: deadline)
      afterEpoch(SystemClock.nanosecondsSinceEpoch())
      var next = cadence.nextEpoch(after: deadline)
      let now = clock.now()
      if next <= now {
        let missed = (now.nanoseconds - next.nanoseconds) / cadence.periodNanoseconds + 1
        device.count { $0.epochsLate += Int(missed) }
        next = cadence.nextEpoch(after: now)
      }
      deadline = next
    }
  }

  /// How a wait for an epoch ended.
  private enum Wake {
    case reached, stopped, clockSteppedBack
  }

  /// Sleeps until `deadline`: in `poll` on the wake pipe while far from it, then with an
  /// absolute `clock_nanosleep`. A deadline more than a period away means the system clock was
  /// set back; the caller plans again from the new time instead of waiting out the step.
  private func sleep(until deadline: UTCInstant) -> Wake {
    var remaining = deadline.nanoseconds - SystemClock.nanosecondsSinceEpoch()
    while thread.shouldRun && remaining > Self.interruptibleAfterNanoseconds {
      if remaining > cadence.periodNanoseconds + Self.preciseSleepNanoseconds {
        return .clockSteppedBack
      }
      let milliseconds = min(
        (remaining - Self.preciseSleepNanoseconds) / 1_000_000, Self.longestPollMilliseconds)
      let ready =
        (try? Poll.wait(
          [(thread.wakePipe.readEnd, .readable)], timeoutMilliseconds: Int32(milliseconds)))
        ?? []
      if ready.first?.contains(.readable) == true { return .stopped }
      remaining = deadline.nanoseconds - SystemClock.nanosecondsSinceEpoch()
      guard remaining > Self.preciseSleepNanoseconds else { break }
    }
    guard thread.shouldRun else { return .stopped }
    SystemClock.sleep(untilNanosecondsSinceEpoch: deadline.nanoseconds)
    return thread.shouldRun ? .reached : .stopped
  }

  private func emitEpoch(at time: UTCInstant) {
    let fix = scene.withLock { $0.fix(at: time) }
    let sentences = encoder.sentences(for: fix)
    let lines = sentences.map(\.line)
    let bytes = Array(lines.joined().utf8)
    guard device.admit(epochOf: bytes.count) == .accepted else { return }
    device.willSend(sentences)
    let chunks = pacing.chunks(
      forLineLengths: lines.map(\.utf8.count),
      granularityNanoseconds: Self.pacingGranularityNanoseconds)
    // The burst is timed on the monotonic clock, which a step of the system clock cannot stretch;
    // these sleeps are not interruptible, one wake-up each, none longer than a sentence's line time.
    let burstStart =
      SystemClock.monotonicNanoseconds()
      - (SystemClock.nanosecondsSinceEpoch() - time.nanoseconds)
    for chunk in chunks {
      SystemClock.sleep(untilMonotonicNanoseconds: burstStart + chunk.offsetNanoseconds)
      guard thread.shouldRun, device.write(bytes[chunk.range]) else { return }
    }
    device.count { $0.epochsSent += 1 }
  }

  /// Asks for SCHED_FIFO priority 10, which keeps the wake-ups within tens of microseconds under
  /// load; ignored where not permitted (not root).
  private static func raisePriorityIfAllowed() {
    var parameters = sched_param()
    parameters.sched_priority = 10
    _ = sched_setscheduler(0, SCHED_FIFO, &parameters)
  }
}
