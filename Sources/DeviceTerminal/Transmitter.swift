import DeviceRuntime
import Receiver
import Synchronization
import SystemIO

/// One device's transmit path, the same for every source: what a source (a simulated receiver's
/// `EpochLoop`, a log's `ReplayLoop`, a real receiver's `PassthroughLoop`; see `DeviceSource`)
/// decides to send goes out here, from the steps of its runtime's scheduler (a passthrough's
/// bytes from the I/O thread that read them, `writeNow`).
///
/// It owns:
/// - the pacing: each epoch's bytes leave as a `PacedBurst`, a chunk when a line at the
///   device's baud would start sending it, never before the line has carried what went before
///   (`lineFreeNanoseconds`);
/// - the admission of bytes the client has no room for, as the source chooses (`Admission`);
/// - the counters, in the device's `DeviceStatistics` (one schema for every source);
/// - the epoch listeners (`EpochListeners`: the TCP and UDP outputs, `subscribe`, the panel,
///   the recorder), told of every epoch as it falls due.
///
/// Only the source calls it (one call at a time: a step on the scheduler's thread, or the
/// passthrough's handler on the I/O thread); the room wait's wake-up comes from the scheduler's
/// thread.
package final class Transmitter: Sendable {
  /// What happens to bytes the client's queue has no room for; the source chooses.
  package enum Admission: Hashable, Sendable {
    /// An epoch that does not fit in what the client left unread is dropped whole before its
    /// first byte, as a UART overruns (`admitEpoch`): a simulated chip. An epoch longer than
    /// the queue itself (raw measurements and their subframes beside NMEA) is admitted on an
    /// empty queue and its writes wait for room (`Transmission.waitsForRoom`).
    case dropEpoch
    /// The write waits until the client has read: the scheduler's thread, which runs the
    /// source's step, polls the pseudo-terminal's master with its sleep and wakes the step
    /// when it is writable again (`TerminalRoomWait`), no polling loop. A replay, which never
    /// loses what a client may still read.
    case waitForRoom
    /// What the queue does not take now is dropped (counted in `bytesDropped`) and the burst
    /// goes on: a passthrough, whose real receiver does not wait for the client.
    case dropBytes
  }

  /// How writing a burst ended.
  package enum Outcome: Hashable, Sendable {
    /// Every chunk was written.
    case done
    /// The burst fell behind its pacing and the rest was dropped (see `PacedBurst`);
    /// `nothingSent` when that happened before the first write.
    case fellBehind(nothingSent: Bool)
    /// A write failed: the client left, or (`dropEpoch`) its queue was full.
    case writeFailed
  }

  /// Where a burst being written stands.
  package enum Progress: Hashable, Sendable {
    /// The next chunk is due at this monotonic time: come back then.
    case wait(untilNanoseconds: Int64)
    /// The client's queue is full (`waitForRoom`): the step is woken when it has room.
    case waitingForRoom
    /// The burst is over.
    case ended(Outcome)

    /// The burst is over.
    package var isOver: Bool {
      if case .ended = self { return true }
      return false
    }
  }

  /// One epoch's bytes on their way out, a chunk at a time at the pace of `paced`.
  package struct Transmission: Sendable {
    /// The chunks and their times.
    package var paced: PacedBurst
    /// The epoch's bytes.
    package let bytes: [UInt8]
    /// Bytes of the current chunk the client's queue has not taken yet (`waitForRoom`).
    package var pending: ArraySlice<UInt8> = []
    /// Bytes written so far.
    package var written = 0
    /// True once a write of it waited for room.
    package var waitedForRoom = false
    /// True when its writes wait for room even under `dropEpoch`: an epoch longer than the
    /// client's queue, admitted on an empty one, goes out as the client reads.
    package var waitsForRoom = false
    /// Monotonic nanoseconds of its last write: after a wait for room, later than its pace.
    package var lastWriteNanoseconds: Int64 = .min

    /// The paced burst of `bytes`.
    package init(paced: PacedBurst, bytes: [UInt8]) {
      self.paced = paced
      self.bytes = bytes
    }

    /// `bytes` in one write at `nanoseconds` (unpaced, or a recording's chunk that arrived
    /// together), never dropped for lateness.
    package static func whole(_ bytes: [UInt8], atNanoseconds nanoseconds: Int64) -> Transmission {
      let chunk = BytePacing.Chunk(range: bytes.indices, offsetNanoseconds: 0)
      return Transmission(
        paced: PacedBurst(
          chunks: [chunk], startNanoseconds: nanoseconds, toleranceNanoseconds: .max),
        bytes: bytes)
    }
  }

  /// The device written to.
  package let device: SerialDevice
  /// The source's choice for a client without room.
  package let admission: Admission
  /// Told of every epoch as it falls due.
  package let listeners = EpochListeners()
  /// When the line has carried everything written so far (monotonic nanoseconds).
  private let lineFree = Atomic<Int64>(.min)
  /// The wait for room in progress, if any.
  private let roomWait = Mutex<(any RoomWaiting)?>(nil)
  private let monotonicNanoseconds: @Sendable () -> Int64
  /// The scheduler whose thread runs the source's steps, and waits for room for them.
  private let scheduler: DeadlineScheduler

  /// A transmitter for `device`, on the clock of `runtime`'s scheduler.
  package init(device: SerialDevice, admission: Admission, runtime: EmulatorRuntime) {
    self.device = device
    self.admission = admission
    monotonicNanoseconds = runtime.scheduler.monotonicNanoseconds
    scheduler = runtime.scheduler
  }

  /// When the line is free of everything written so far: the next burst's first write waits
  /// for it.
  package var lineFreeNanoseconds: Int64 { lineFree.load(ordering: .acquiring) }

  /// Notes that the line carries something until `nanoseconds` (a burst, a reply).
  package func holdLine(untilNanoseconds nanoseconds: Int64) {
    lineFree.max(nanoseconds, ordering: .acquiringAndReleasing)
  }

  /// Updates the counters.
  package func count(_ update: (inout DeviceStatistics) -> Void) {
    device.count(update)
  }

  /// Admits an epoch of `byteCount` bytes under `dropEpoch`: accepted while a client has the
  /// device open and has room for all of it (`reading` taken ahead, see
  /// `SerialDevice.admit(byteCount:after:)`); the epoch refused is counted.
  package func admitEpoch(byteCount: Int, after reading: SerialDevice.UnreadReading?) -> Bool {
    switch device.admit(byteCount: byteCount, after: reading) {
    case .noReader:
      count { $0.epochsWithoutClient += 1 }
      return false
    case .overrun:
      count { $0.epochsOverrun += 1 }
      return false
    case .accepted:
      return true
    }
  }

  /// Writes every chunk of `transmission` due now, under the admission policy; says when to
  /// come back, never blocks. With `yieldingAfterFirstWrite`, comes back at once after the
  /// burst's first write, so that the scheduler writes the first bytes of every device's epoch
  /// due at one instant before anything else. `wake` runs the source's step again (from the
  /// scheduler's thread) when a client that had no room has read.
  package func writeDue(
    _ transmission: inout Transmission, yieldingAfterFirstWrite: Bool = false,
    wake: @escaping @Sendable () -> Void
  ) -> Progress {
    let end = transmission.bytes.endIndex
    let firstByte = transmission.paced.chunks.first?.range.lowerBound ?? 0
    while true {
      if !transmission.pending.isEmpty {
        if let stalled = flush(&transmission, wake: wake) { return stalled }
        continue
      }
      let time = monotonicNanoseconds()
      switch transmission.paced.next(now: time) {
      case .wait(let until):
        return .wait(untilNanoseconds: until)
      case .write(let range):
        if admission == .dropEpoch, !transmission.waitsForRoom {
          guard
            device.transmit(
              transmission.bytes[range], afterIdle: range.lowerBound == firstByte,
              thenIdle: range.upperBound == end)
          else { return .ended(.writeFailed) }
          transmission.written += range.count
          transmission.lastWriteNanoseconds = time
        } else {
          transmission.pending = transmission.bytes[range]
          if let stalled = flush(&transmission, wake: wake) { return stalled }
        }
        if yieldingAfterFirstWrite, transmission.paced.writtenCount == 1 {
          return .wait(untilNanoseconds: time)
        }
      case .dropRest:
        return .ended(.fellBehind(nothingSent: transmission.paced.writtenCount == 0))
      case .done:
        return .ended(.done)
      }
    }
  }

  /// Writes `bytes` at once under `dropBytes` (a passthrough's, whose receiver paces them):
  /// what the client's queue does not take is dropped and counted, as is everything while no
  /// client has the device open. Returns how many bytes were written.
  package func writeNow(_ bytes: [UInt8]) -> Int {
    precondition(admission == .dropBytes, "only bytes that may be dropped are written at once")
    var transmission = Transmission.whole(bytes, atNanoseconds: monotonicNanoseconds())
    _ = writeDue(&transmission, wake: {})
    return transmission.written
  }

  /// Notes that a burst is over: the line is busy until it has carried what was written, at
  /// its pace, and at least until its last write (a write that waited for room left late).
  package func finish(_ transmission: Transmission) {
    guard let free = transmission.paced.lineFreeNanoseconds else { return }
    holdLine(untilNanoseconds: max(free, transmission.lastWriteNanoseconds))
  }

  /// Writes what the client's queue takes of the pending bytes; nil once all are written (or,
  /// under `dropBytes`, the rest dropped), else how the burst stands.
  private func flush(_ transmission: inout Transmission, wake: @escaping @Sendable () -> Void)
    -> Progress?
  {
    while !transmission.pending.isEmpty {
      switch device.writeSome(transmission.pending) {
      case .wrote(let count):
        transmission.pending = transmission.pending.dropFirst(count)
        transmission.written += count
        transmission.lastWriteNanoseconds = monotonicNanoseconds()
      case .noClient:
        if admission == .dropBytes {
          let dropped = transmission.pending.count
          count { $0.bytesWithoutClient += dropped }
        }
        return .ended(.writeFailed)
      case .full where admission == .dropBytes:
        let dropped = transmission.pending.count
        count { $0.bytesDropped += dropped }
        transmission.pending = []
      case .full:
        if !transmission.waitedForRoom { count { $0.clientWaits += 1 } }
        transmission.waitedForRoom = true
        return waitForRoom(wake: wake)
      }
    }
    return nil
  }

  /// Has the scheduler's thread call `wake` when the client's queue has room again; without a
  /// wait (the master could not be duplicated), comes back after `roomRecheckNanoseconds`.
  private func waitForRoom(wake: @escaping @Sendable () -> Void) -> Progress {
    let waiting = roomWait.withLock { current -> Bool in
      current?.cancel()
      current = device.waitForRoom(on: scheduler, wake)
      return current != nil
    }
    guard waiting else {
      return .wait(untilNanoseconds: monotonicNanoseconds() + Self.roomRecheckNanoseconds)
    }
    return .waitingForRoom
  }

  /// How soon a write that cannot wait for room looks again.
  package static let roomRecheckNanoseconds: Int64 = 5_000_000

  /// Ends a wait for room in progress; the source stops.
  package func stop() {
    roomWait.withLock { $0.take() }?.cancel()
  }
}
