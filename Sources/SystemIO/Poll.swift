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
    /// The descriptor is not open: a bug in the caller, never a condition to wait out.
    public static let invalid = Events(rawValue: Int16(POLLNVAL))
  }

  /// One descriptor to watch, by number: the owner keeps it open for the duration of the wait.
  public struct Request: Hashable, Sendable {
    public var rawDescriptor: Int32
    public var events: Events

    /// Creates a request.
    public init(rawDescriptor: Int32, events: Events) {
      self.rawDescriptor = rawDescriptor
      self.events = events
    }
  }

  /// Waits up to `timeoutMilliseconds` (-1: forever) and returns each descriptor's events, in
  /// the order of `requests`.
  ///
  /// The corresponding C function is `poll(2)`; EINTR returns no events.
  public static func wait(_ requests: [Request], timeoutMilliseconds: Int32) throws(SystemError)
    -> [Events]
  {
    var fds = requests.map { pollfd(fd: $0.rawDescriptor, events: $0.events.rawValue, revents: 0) }
    do {
      try systemCall("poll", retryOnInterrupt: false) {
        Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
      }
    } catch  where error.errno == EINTR {
      return requests.map { _ in [] }
    }
    return fds.map { Events(rawValue: $0.revents) }
  }
}
