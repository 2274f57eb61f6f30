import DeviceRuntime
import Replay

/// The bytes one write of a replay carries: an epoch's, and under `--baud 0` those of the
/// epochs already due when it begins, joined to it (see `ReplayLoop`), so that a log replayed
/// as fast as a client reads leaves in writes of tens of KiB instead of one per epoch.
///
/// Each epoch is counted sent once every byte of it is written; an epoch the write did not
/// carry whole (the client left) is counted without a client, with its bytes not written.
struct JoinedEpochs {
  /// What each epoch adds to the counters.
  struct Size {
    var byteCount: Int
    var packetCount: Int
  }

  /// The most bytes epochs are joined up to: what a pseudo-terminal's queue takes in one write
  /// when its client keeps up (the kernel holds 64 KiB for it).
  static let byteLimit = 65_536

  /// Every byte, epochs in order.
  private(set) var bytes: [UInt8] = []
  /// The epochs' sizes, in order.
  private(set) var sizes: [Size] = []

  /// No epoch yet.
  init() {}

  /// Lets go of every epoch, keeping the storage for the next write (when no copy shares it): a
  /// fresh 64 KiB buffer for each write of an unpaced replay had glibc consolidate its freed
  /// small blocks at each (`malloc_consolidate`), and the packets' allocations after it slowed.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    sizes.removeAll(keepingCapacity: true)
  }

  /// How many epochs the bytes hold.
  var epochCount: Int { sizes.count }

  /// True when `epoch` fits beside the bytes held, within `byteLimit`.
  func hasRoom(for epoch: ReplayEpoch) -> Bool {
    bytes.count + epoch.byteCount <= Self.byteLimit
  }

  /// Joins `epoch` after the others (the first: holds it).
  mutating func append(_ epoch: ReplayEpoch) {
    // An epoch alone (paced) takes its size; a second one starts joining up to the limit.
    bytes.reserveCapacity(sizes.isEmpty ? epoch.byteCount : Self.byteLimit)
    let before = bytes.count
    for packet in epoch.packets { bytes += packet.bytes }
    sizes.append(Size(byteCount: bytes.count - before, packetCount: epoch.packets.count))
  }

  /// Counts the epochs once the first `written` bytes went out: sent, with their packets, or
  /// without a client, with their bytes not written.
  func count(written: Int, into counters: inout DeviceStatistics) {
    var left = written
    for size in sizes {
      let carried = min(left, size.byteCount)
      left -= carried
      if carried == size.byteCount {
        counters.epochsSent += 1
        counters.packetsSent += size.packetCount
      } else {
        counters.epochsWithoutClient += 1
        counters.bytesWithoutClient += size.byteCount - carried
      }
    }
  }
}
