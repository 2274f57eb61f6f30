import Glibc

/// Reports opens and closes of a device node by anyone, through an inotify instance of its own.
///
/// The kernel merges identical events that have not been read yet, so two opens in a row arrive
/// as one: take the events as a sign to look at the node's state, never count them.
///
/// Linux limits the inotify instances of a user (`/proc/sys/fs/inotify/max_user_instances`,
/// often 128): a process that watches many nodes uses one `DeviceNodeWatchers` instead.
public struct DeviceNodeWatcher: ~Copyable, Sendable {
  /// What happened to the node.
  public enum Event: Hashable, Sendable {
    case opened
    case closed

    /// The events an inotify mask reports, opens first.
    static func events(in mask: UInt32) -> [Event] {
      var events: [Event] = []
      if mask & UInt32(IN_OPEN) != 0 { events.append(.opened) }
      if mask & UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) != 0 { events.append(.closed) }
      return events
    }
  }

  /// The inotify descriptor, to poll for readability.
  public let descriptor: FileDescriptor

  /// Starts watching `path`.
  ///
  /// The corresponding C functions are `inotify_init1(2)` and `inotify_add_watch(2)`.
  public init(path: String) throws(SystemError) {
    let fd = try systemCall("watch", path: path) { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    let owned = FileDescriptor(owning: fd)
    try systemCall("watch", path: path) { inotify_add_watch(fd, path, Self.mask) }
    descriptor = owned
  }

  /// What a watch asks the kernel to report: opens and closes.
  static let mask = UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)

  /// The events that arrived since the last call, in order.
  public func readEvents() -> [Event] {
    Self.readRecords(from: descriptor).flatMap { Event.events(in: $0.mask) }
  }

  /// One event record of an inotify descriptor: the watch it concerns and what happened.
  struct Record {
    var watch: Int32
    var mask: UInt32
  }

  /// Reads the records an inotify descriptor holds now, in order, without blocking: at most
  /// `readLimit` reads of a 4 KiB buffer, so that a client opening and closing the node without
  /// end cannot hold the I/O thread in one call (a review's two such clients kept it reading
  /// for 2.4 s, 828 reads back to back, while the other devices' clients and commands waited).
  /// What is left keeps the descriptor readable, and the loop comes back for it. The buffer is
  /// not zeroed: most reads find nothing (a device looks about once a second), and only the
  /// bytes read are looked at.
  static func readRecords(from descriptor: borrowing FileDescriptor) -> [Record] {
    var records: [Record] = []
    let headerSize = MemoryLayout<inotify_event>.size
    withUnsafeTemporaryAllocation(
      byteCount: 4096, alignment: MemoryLayout<inotify_event>.alignment
    ) { buffer in
      for _ in 0..<readLimit {
        guard case .transferred(let count) = (try? descriptor.read(into: buffer)) ?? .wouldBlock,
          count > 0
        else { break }
        var offset = 0
        while offset + headerSize <= count {
          let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          records.append(Record(watch: event.wd, mask: event.mask))
          offset += headerSize + Int(event.len)
        }
      }
    }
    return records
  }

  /// The reads of one `readRecords`: up to 4,096 records of a node without a name, 16 bytes
  /// each (the kernel queues 16,384 at most).
  static let readLimit = 16
}
