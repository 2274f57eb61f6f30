import Glibc

/// Waits until one of several descriptors is ready.
public enum Poll {
  /// What happened on a descriptor.
  public struct Events: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = Events(rawValue: Int16(POLLIN))
    public static let writable = Events(rawValue: Int16(POLLOUT))
    public static let hangUp = Events(rawValue: Int16(POLLHUP))
    public static let error = Events(rawValue: Int16(POLLERR))
  }

  /// Waits up to `timeoutMilliseconds` (-1: forever) and returns each descriptor's events.
  ///
  /// The corresponding C function is `poll(2)`; EINTR returns no events.
  public static func wait(
    _ descriptors: [(FileDescriptor, Events)], timeoutMilliseconds: Int32
  ) throws(SystemError) -> [Events] {
    var fds = descriptors.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    do {
      try systemCall("poll", retryOnInterrupt: false) {
        Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
      }
    } catch  where error.errno == EINTR {
      return descriptors.map { _ in [] }
    }
    return fds.map { Events(rawValue: $0.revents) }
  }
}
