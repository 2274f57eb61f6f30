import Glibc

/// Reports opens and closes of many device nodes through one inotify instance: a process that
/// runs hundreds of devices holds one instance, not one a device (Linux allows a user 128 by
/// default, `/proc/sys/fs/inotify/max_user_instances`; watches are plentiful).
///
/// The kernel merges identical events that have not been read yet, so two opens in a row arrive
/// as one: take the events as a sign to look at the node's state, never count them.
///
/// Events of a watch that was removed, or that the kernel dropped (`IN_IGNORED`: the node went
/// away), are never reported. When the kernel's queue overflowed, every watch is reported both
/// opened and closed, so that every owner looks again. Watch each path once: the kernel gives
/// a path watched twice the same watch.
public struct DeviceNodeWatchers: ~Copyable, Sendable {
  /// What happened to a node.
  public typealias Event = DeviceNodeWatcher.Event

  /// A watch of the set: what `readEvents()` reports events of.
  public struct WatchID: Hashable, Sendable, CustomStringConvertible {
    /// The kernel's watch descriptor.
    public let rawValue: Int32
    public var description: String { "watch \(rawValue)" }
  }

  /// The inotify descriptor, to poll for readability.
  public let descriptor: FileDescriptor
  /// The watches added and not removed (nor dropped by the kernel).
  public private(set) var watches: Set<WatchID> = []

  /// Creates the inotify instance, with no watch.
  ///
  /// The corresponding C function is `inotify_init1(2)`.
  public init() throws(SystemError) {
    descriptor = FileDescriptor(
      owning: try systemCall("create inotify instance") {
        inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      })
  }

  /// Starts watching opens and closes of `path`.
  ///
  /// The corresponding C function is `inotify_add_watch(2)`.
  public mutating func add(path: String) throws(SystemError) -> WatchID {
    let fd = descriptor.rawValue
    let watch = WatchID(
      rawValue: try systemCall("watch", path: path) {
        inotify_add_watch(fd, path, DeviceNodeWatcher.mask)
      })
    watches.insert(watch)
    return watch
  }

  /// Stops watching: no event of `watch` is reported any more, not even one already queued.
  /// Does nothing for a watch already removed.
  ///
  /// The corresponding C function is `inotify_rm_watch(2)`.
  public mutating func remove(_ watch: WatchID) {
    guard watches.remove(watch) != nil else { return }
    // Fails only when the kernel has dropped the watch already (the node went away).
    _ = inotify_rm_watch(descriptor.rawValue, watch.rawValue)
  }

  /// The events that arrived since the last call, in order, each with its watch.
  public mutating func readEvents() -> [(watch: WatchID, event: Event)] {
    var events: [(watch: WatchID, event: Event)] = []
    for record in DeviceNodeWatcher.readRecords(from: descriptor) {
      let watch = WatchID(rawValue: record.watch)
      if record.mask & UInt32(IN_Q_OVERFLOW) != 0 {
        for watch in watches { events += [(watch, .opened), (watch, .closed)] }
      } else if record.mask & UInt32(IN_IGNORED) != 0 {
        watches.remove(watch)
      } else if watches.contains(watch) {
        events += Event.events(in: record.mask).map { (watch, $0) }
      }
    }
    return events
  }
}
