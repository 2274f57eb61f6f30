import Glibc
import Receiver
import Simulation
import Synchronization
import SystemIO

/// The receiver's heartbeat and the device's one writer: on its own thread it asks the
/// scheduler what to do, sleeps until each epoch on the monotonic clock, takes the epoch's bytes
/// from the source at the epoch's simulated time, and writes them to the device as a burst
/// paced at the baud. Replies to commands are written by the same thread, between sentences.
final class EpochLoop: Sendable {
  /// What the loop works from; changed at run time by commands and the API, read once a step.
  struct Plan: Sendable {
    var scheduler: EpochScheduler
    var pacing: BytePacing
    var source: any EpochSource
    var time: SimulatedTime
  }

  /// Line time one write of a paced burst may cover: whole sentences, grouped up to 40 ms,
  /// each written when its last byte would have arrived on the line. Writing every byte would
  /// cost a wake-up a millisecond, and a wake-up costs about 45 µs of CPU on a VM.
  static let pacingGranularityNanoseconds: Int64 = 40_000_000

  let device: SerialDevice
  let plan: Mutex<Plan>
  private let pendingReplies = Mutex<[[UInt8]]>([])
  /// Called on the loop's thread after each epoch with the monotonic time, for housekeeping
  /// such as the link guard.
  private let afterEpoch: @Sendable (Int64) -> Void
  private let clock: any UTCClock
  private let thread: StoppableThread

  init(
    plan: Plan, device: SerialDevice, clock: any UTCClock = SystemUTCClock(),
    afterEpoch: @escaping @Sendable (Int64) -> Void = { _ in }
  ) throws(SystemError) {
    thread = try StoppableThread(name: "mockgps-epochs")
    self.plan = Mutex(plan)
    self.device = device
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

  /// Queues a reply to a command; it leaves at the next gap between sentences.
  func send(reply: [UInt8]) {
    pendingReplies.withLock { $0.append(reply) }
    thread.wake()
  }

  /// Applies what a command handler asked for: replies leave at the next gap between
  /// sentences, and a new rate, baud or sentence set holds from the next epoch on.
  func apply(_ effects: [ReceiverEffect]) {
    for effect in effects {
      switch effect {
      case .reply(let bytes):
        send(reply: bytes)
      case .setRate(let cadence):
        plan.withLock { $0.scheduler.change(cadence: cadence) }
        thread.wake()
      case .setBaud(let pacing):
        plan.withLock { $0.pacing = pacing }
        device.setBaud(pacing.baud)
      case .setSentences(let types):
        plan.withLock { plan in
          guard var source = plan.source as? SceneSource else { return }
          source.encoder.enabledSentences = types
          plan.source = source
        }
      }
    }
  }

  private func run() {
    while thread.shouldRun {
      writePendingReplies()
      let now = clock.now()
      let monotonicNow = SystemClock.monotonicNanoseconds()
      let (step, current) = plan.withLock { plan in (plan.scheduler.step(now: now), plan) }
      if step.skippedEpochs > 0 || step.replanned {
        device.count {
          $0.epochsLate += step.skippedEpochs
          $0.clockStepsBack += step.replanned ? 1 : 0
        }
      }
      switch step.action {
      case .wait(let deadline):
        let monotonicDeadline = monotonicNow + (deadline.nanoseconds - now.nanoseconds)
        if thread.sleep(untilMonotonicNanoseconds: monotonicDeadline) == .stopped { return }
      case .send(let epochTime):
        let due = monotonicNow - (now.nanoseconds - epochTime.nanoseconds)
        send(
          current.source.epoch(at: current.time.simulated(atWire: epochTime)),
          pacing: current.pacing, due: due,
          tolerance: current.scheduler.lateToleranceNanoseconds)
        afterEpoch(SystemClock.monotonicNanoseconds())
      }
    }
  }

  /// Writes one epoch as a paced burst timed from when it was due. `tolerance` is how late a
  /// write may be; an epoch whose first write would be later than that is skipped as late.
  private func send(_ epoch: Epoch, pacing: BytePacing, due: Int64, tolerance: Int64) {
    switch device.admit(byteCount: epoch.byteCount) {
    case .noReader:
      device.count { $0.epochsWithoutClient += 1 }
      return
    case .overrun:
      device.count { $0.epochsOverrun += 1 }
      return
    case .accepted:
      break
    }
    device.willSend(lines: epoch.packets.compactMap(Self.sentenceText))
    let bytes = epoch.bytes
    var burst = PacedBurst(
      chunks: pacing.chunks(
        forLineLengths: epoch.packets.map(\.count),
        granularityNanoseconds: Self.pacingGranularityNanoseconds),
      startNanoseconds: due, toleranceNanoseconds: tolerance)
    while true {
      switch burst.next(now: SystemClock.monotonicNanoseconds()) {
      case .wait(let until):
        if thread.sleep(untilMonotonicNanoseconds: until) == .stopped { return }
        writePendingReplies()
      case .write(let range):
        guard device.write(bytes[range]) else { return }
      case .dropRest:
        // Nothing written: the whole epoch came too late; else the burst fell behind midway.
        let nothingSent = burst.writtenCount == 0
        device.count { statistics in
          if nothingSent {
            statistics.epochsLate += 1
          } else {
            statistics.burstsCut += 1
          }
        }
        return
      case .done:
        device.count { $0.epochsSent += 1 }
        return
      }
    }
  }

  private func writePendingReplies() {
    let replies = pendingReplies.withLock { pending in
      defer { pending.removeAll() }
      return pending
    }
    for reply in replies where device.admit(byteCount: reply.count) == .accepted {
      if device.write(reply[...]) { device.count { $0.repliesSent += 1 } }
    }
  }

  /// The text of an NMEA sentence packet without its line ending, for the echo filter.
  private static func sentenceText(_ packet: [UInt8]) -> String? {
    guard let first = packet.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!")
    else { return nil }
    var end = packet.endIndex
    while end > packet.startIndex, packet[end - 1] == 0x0A || packet[end - 1] == 0x0D { end -= 1 }
    return String(decoding: packet[..<end], as: UTF8.self)
  }
}
