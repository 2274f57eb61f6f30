import DeviceRuntime
import DeviceTerminal
import Receiver
import Simulation

/// What an epoch loop's step reads of its plan under the lock: everything but the source, so
/// that a step does not copy the source.
struct EpochPlanReading {
  var time: SimulatedTime
  var sourceRevision: Int
  var pacing: BytePacing
  var wirePeriodNanoseconds: Int64
  var lateToleranceNanoseconds: Int64
  /// The source's end, when it has one.
  var endTime: UTCInstant?
}

extension EpochLoop.Plan {
  /// What a step reads of the plan: a property, so that the lock's closure reads the plan in
  /// place (an initializer given the plan copied it whole, a tenth of a step's own
  /// instructions under callgrind).
  var reading: EpochPlanReading {
    EpochPlanReading(
      time: time, sourceRevision: sourceRevision, pacing: pacing,
      wirePeriodNanoseconds: scheduler.wirePeriodNanoseconds,
      lateToleranceNanoseconds: scheduler.lateToleranceNanoseconds, endTime: source.endTime)
  }
}

/// An epoch made ready while its loop waited for it: encoded, its packets joined, its writes
/// planned, with the revision of the source it came from and the clients' unread bytes then.
///
/// Every device of a runtime shares one thread and their epochs fall due at the same aligned
/// instants: done at the deadline, the last device's first byte would wait for every other
/// device's encoding (about 10 ms for 100 devices). Done half a wire period ahead instead, the
/// deadline only writes. A change to the source in between (a control command, the API)
/// changes its revision and wakes the loop (`EpochLoop.changePlan`), which encodes the epoch
/// again from the new source before its deadline; one that comes too late for that (within
/// the step that sends it) is taken at the deadline, so that a change still takes effect in
/// the next epoch.
///
/// A class, so that the deadline moves one reference, not the arrays inside; only its loop's
/// steps touch it.
final class PreparedEpoch {
  let time: UTCInstant
  let sourceRevision: Int
  let epoch: Epoch
  /// The epoch's packets in one buffer, as the burst writes them.
  let bytes: [UInt8]
  /// The writes of its burst, planned at `pacing` and `timeScale`.
  private(set) var chunks: [BytePacing.Chunk]
  private(set) var pacing: BytePacing
  private(set) var timeScale: Double
  /// What the listeners are told once its first bytes are written.
  let notice: DueEpoch
  /// The clients' unread bytes when it was made, to admit it without asking the terminal.
  let unread: SerialDevice.UnreadReading?

  /// Encodes the epoch at `time` from `source`, plans its writes, and takes `readUnread`'s
  /// reading of the clients' unread bytes for admitting its bytes.
  init(
    time: UTCInstant, source: any EpochSource, sourceRevision: Int, pacing: BytePacing,
    timeScale: Double, readUnread: (_ toAdmit: Int) -> SerialDevice.UnreadReading?
  ) {
    self.time = time
    self.sourceRevision = sourceRevision
    epoch = source.epoch(at: time)
    bytes = epoch.bytes
    self.pacing = pacing
    self.timeScale = timeScale
    chunks = Self.chunks(of: epoch, pacing: pacing, timeScale: timeScale)
    notice = DueEpoch(time: time, packets: epoch.packets, fix: epoch.fix)
    unread = readUnread(bytes.count)
  }

  /// True when it is the epoch at `time` from the plan's current source.
  func isEpoch(at time: UTCInstant, of plan: EpochPlanReading) -> Bool {
    time == self.time && plan.sourceRevision == sourceRevision
  }

  /// Plans its writes again when the baud or the time scale changed since.
  func plan(pacing: BytePacing, timeScale: Double) {
    guard pacing != self.pacing || timeScale != self.timeScale else { return }
    self.pacing = pacing
    self.timeScale = timeScale
    chunks = Self.chunks(of: epoch, pacing: pacing, timeScale: timeScale)
  }

  /// The writes of an epoch's burst: whole sentences, up to
  /// `EpochLoop.pacingGranularityNanoseconds` of line time each.
  ///
  /// The lengths are mapped with a closure: the key path `\.count` went through the runtime's
  /// generic key-path projection for each packet, 12 % of a fleet's instructions (callgrind).
  private static func chunks(
    of epoch: Epoch, pacing: BytePacing, timeScale: Double
  ) -> [BytePacing.Chunk] {
    pacing.chunks(
      forLineLengths: epoch.packets.map { $0.count },
      granularityNanoseconds: EpochLoop.pacingGranularityNanoseconds, timeScale: timeScale)
  }
}
