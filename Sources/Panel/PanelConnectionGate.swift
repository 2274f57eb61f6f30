/// Which panel connections to cut so that connections without a whole request (slowloris: a
/// header line now and then) cannot hold every slot against the token holder. Pure: the server
/// reports connections opened, requests read and connections closed, with the time, and cuts
/// the connections this returns.
///
/// Invariants: at most `maximumWaiting` connections wait for their request's headers (a new one
/// over the limit cuts the one waiting longest, so a request sent at once, as a browser sends
/// it, always gets its slot); none waits longer than `headerDeadlineNanoseconds`, however often
/// it sends a byte (the library's own timeout counts silence only). A connection whose request
/// was read is no longer watched: a refused request is answered with `Connection: close`, so
/// only the token holder's connections outlive their first request.
public struct PanelConnectionGate: Sendable {
  /// Connections waiting for their headers at once; the rest of the library's slots
  /// (`PanelServer.maximumConnections`) stay for connections whose request was read.
  public let maximumWaiting: Int
  /// The longest a connection may take to send its request's headers.
  public let headerDeadlineNanoseconds: Int64
  /// Waiting connections by id, with when they opened, oldest first.
  private var waiting: [(id: UInt, openedAt: Int64)] = []

  /// A gate with the given limits.
  public init(maximumWaiting: Int, headerDeadlineNanoseconds: Int64) {
    precondition(maximumWaiting > 0 && headerDeadlineNanoseconds > 0)
    self.maximumWaiting = maximumWaiting
    self.headerDeadlineNanoseconds = headerDeadlineNanoseconds
  }

  /// Connections waiting for their headers now.
  public var waitingCount: Int { waiting.count }

  /// A connection opened at `now`: returns the ids to cut (the longest waiting, past the limit).
  public mutating func opened(_ id: UInt, now: Int64) -> [UInt] {
    waiting.append((id, now))
    guard waiting.count > maximumWaiting else { return [] }
    let cut = waiting.prefix(waiting.count - maximumWaiting).map(\.id)
    waiting.removeFirst(cut.count)
    return cut
  }

  /// The headers of connection `id`'s request were read: it is no longer watched.
  public mutating func requestRead(_ id: UInt) {
    waiting.removeAll { $0.id == id }
  }

  /// Connection `id` closed.
  public mutating func closed(_ id: UInt) {
    requestRead(id)
  }

  /// The waiting connections past the deadline at `now`, forgotten: the caller cuts them.
  public mutating func expired(now: Int64) -> [UInt] {
    let count = waiting.prefix { now - $0.openedAt >= headerDeadlineNanoseconds }.count
    let cut = waiting.prefix(count).map(\.id)
    waiting.removeFirst(count)
    return cut
  }
}
