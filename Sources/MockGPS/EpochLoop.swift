import Glibc
import Receiver
import Simulation
import Synchronization
import SystemIO

/// The receiver's heartbeat: on its own thread, sleeps until each epoch of the cadence plan
/// (absolute deadlines on the real-time clock), builds the epoch's sentences from the scene at the
/// scheduled time, and writes them to the device as a burst paced at the baud.
final class EpochLoop: Sendable {
  /// The longest single sleep, so that `stop()` is noticed promptly even at 0.1 Hz.
  static let sleepSliceNanoseconds: Int64 = 200_000_000

  let cadence: CadencePlan
  let pacing: BytePacing
  let encoder: EpochEncoder
  let device: SerialDevice
  let scene: Mutex<Scene>
  private let clock = SystemUTCClock()
  private let running = Atomic<Bool>(true)
  private let finished = Mutex(false)

  init(
    cadence: CadencePlan, pacing: BytePacing, encoder: EpochEncoder, device: SerialDevice,
    scene: Scene
  ) {
    self.cadence = cadence
    self.pacing = pacing
    self.encoder = encoder
    self.device = device
    self.scene = Mutex(scene)
  }

  func start() throws(SystemError) {
    try SystemThread.start(name: "mockgps-epochs") { [self] in
      defer { finished.withLock { $0 = true } }
      Self.raisePriorityIfAllowed()
      run()
    }
  }

  /// Stops the loop and waits until its thread has returned.
  func stop() {
    running.store(false, ordering: .releasing)
    while !finished.withLock({ $0 }) { usleep(1000) }
  }

  private func run() {
    var deadline = cadence.nextEpoch(after: clock.now())
    while sleep(until: deadline) {
      emitEpoch(at: deadline)
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

  /// Sleeps until `deadline`; false when the loop was stopped meanwhile.
  private func sleep(until deadline: UTCInstant) -> Bool {
    while running.load(ordering: .acquiring) {
      let now = RealtimeClock.nanosecondsSinceEpoch()
      if now >= deadline.nanoseconds { return true }
      let wake = min(deadline.nanoseconds, now + Self.sleepSliceNanoseconds)
      RealtimeClock.sleep(untilNanosecondsSinceEpoch: wake)
    }
    return false
  }

  private func emitEpoch(at time: UTCInstant) {
    let fix = scene.withLock { $0.fix(at: time) }
    let sentences = encoder.sentences(for: fix)
    let bytes = Array(sentences.map(\.line).joined().utf8)
    guard device.admit(epochOf: bytes.count) == .accepted else { return }
    device.willSend(sentences)
    for chunk in pacing.chunks(forByteCount: bytes.count) {
      if chunk.offsetNanoseconds > 0,
        !sleep(until: time.adding(nanoseconds: chunk.offsetNanoseconds))
      {
        return
      }
      guard device.write(bytes[chunk.range]) else { return }
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
