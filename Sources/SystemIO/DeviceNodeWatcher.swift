import Glibc

/// Reports opens and closes of a device node by anyone, through inotify.
///
/// The kernel merges identical events that have not been read yet, so two opens in a row arrive
/// as one: take the events as a sign to look at the node's state, never count them.
public struct DeviceNodeWatcher: ~Copyable, Sendable {
  /// What happened to the node.
  public enum Event: Hashable, Sendable {
    case opened
    case closed
  }

  /// The inotify descriptor, to poll for readability.
  public let descriptor: FileDescriptor

  /// Starts watching `path`.
  ///
  /// The corresponding C functions are `inotify_init1(2)` and `inotify_add_watch(2)`.
  public init(path: String) throws(SystemError) {
    let fd = try systemCall("watch", path: path) { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    let owned = FileDescriptor(owning: fd)
    let mask = UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)
    try systemCall("watch", path: path) { inotify_add_watch(fd, path, mask) }
    descriptor = owned
  }

  /// The events that arrived since the last call, in order.
  public func readEvents() -> [Event] {
    var events: [Event] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case .transferred(let count) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock,
      count > 0
    {
      var offset = 0
      let headerSize = MemoryLayout<inotify_event>.size
      while offset + headerSize <= count {
        let (mask, nameLength) = buffer.withUnsafeBytes { bytes in
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.mask, Int(event.len))
        }
        if mask & UInt32(IN_OPEN) != 0 { events.append(.opened) }
        if mask & UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) != 0 { events.append(.closed) }
        offset += headerSize + nameLength
      }
    }
    return events
  }
}
