import Control
import Glibc
import Synchronization
import SystemIO

/// Serves a control socket on an I/O loop: accepts many clients, reads each one's requests
/// through its own bounded `ControlLineReader`, answers every request with exactly one reply in
/// order, and sends `subscribe` lines. Everything a client does happens on the I/O thread and
/// never blocks it: replies wait in a per-client queue, and a client whose queue passes
/// `maximumQueuedBytes` (it does not read its replies) is disconnected, logged once.
final class ControlServer: Sendable {
  /// The most reply bytes a client may leave unread before it is disconnected.
  static let maximumQueuedBytes = 1 << 20
  /// The most subscription bytes queued for a client before further lines are dropped
  /// (counted), so that a subscriber that does not read never grows a queue.
  static let maximumSubscriptionBacklog = 64 << 10
  /// The most clients at once; more are accepted and closed at once.
  static let maximumClients = 256
  /// Bytes read from a client per readiness, so that one flooding client takes its turn.
  static let readChunk = 16 << 10

  /// Answers one request (every one but `subscribe`, which the server answers itself).
  typealias Handler = @Sendable (ControlRequest) -> ControlReply

  let path: String
  private let io: IOLoop
  private let log: Log
  private let handler: Handler
  private let listener: Mutex<UnixSocketListener?>
  private let listenerRegistration = Mutex<IOLoop.Registration?>(nil)
  private let clients = Mutex<[UInt64: ControlClient]>([:])
  private let nextClient = Atomic<UInt64>(1)
  private let subscriberCount = Atomic<Int>(0)
  private let linesDropped = Atomic<Int>(0)

  /// Listens on `settings.path` and starts serving on `io`.
  ///
  /// - Throws: `UnixSocket.SocketError` (another process listens there, something that is not
  ///   a socket stands there, the group does not exist, the folder is not private).
  init(settings: ControlSettings, io: IOLoop, log: Log, handler: @escaping Handler)
    throws(UnixSocket.SocketError)
  {
    var groupID: UInt32?
    if let name = settings.groupName {
      guard let found = Groups.groupID(named: name) else {
        throw .system(SystemError("find group '\(name)' for", path: settings.path, errno: EINVAL))
      }
      groupID = found
    }
    // The default folder is made here, private; an explicit path's folder is the user's.
    if !settings.isExplicit, let slash = settings.path.lastIndex(of: "/") {
      try UnixSocket.preparePrivateDirectory(String(settings.path[..<slash]), groupID: groupID)
    }
    path = settings.path
    self.io = io
    self.log = log
    self.handler = handler
    listener = Mutex(
      try UnixSocketListener(path: settings.path, mode: settings.mode, groupID: groupID))
    let descriptor = listener.withLock { $0?.descriptor.rawValue ?? -1 }
    do {
      let registration = try io.add(descriptor: descriptor, events: .readable) {
        [self] _ in acceptWaiting()
      }
      listenerRegistration.withLock { $0 = registration }
    } catch {
      listener.withLock { $0.take()?.close() }
      throw .system(error)
    }
  }

  /// Clients connected now.
  var clientCount: Int { clients.withLock { $0.count } }

  /// Subscription lines dropped because a subscriber did not read them.
  var subscriptionLinesDropped: Int { linesDropped.load(ordering: .relaxed) }

  /// True while at least one client has subscribed: only then are epoch lines worth building.
  var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

  /// Hands a subscription line (ending in "\n") to every subscriber, from any thread: it is
  /// queued on the I/O thread, never written here.
  func publish(_ line: String) {
    let bytes = Array(line.utf8)
    io.perform { [self] in
      let subscribers = clients.withLock { $0.values.filter(\.isSubscribed) }
      for client in subscribers {
        if client.queuedByteCount > Self.maximumSubscriptionBacklog {
          linesDropped.add(1, ordering: .relaxed)
          client.subscriptionLinesDropped += 1
        } else {
          send(bytes, to: client)
        }
      }
    }
  }

  /// Stops listening, removes the socket and closes every connection. Not from the I/O thread.
  func close() {
    if let registration = listenerRegistration.withLock({ $0.take() }) { io.remove(registration) }
    listener.withLock { $0.take()?.close() }
    let all = clients.withLock { clients in
      defer { clients.removeAll() }
      return Array(clients.values)
    }
    for client in all { drop(client, removingFromTable: false) }
  }

  private func acceptWaiting() {
    for _ in 0..<64 {
      let accepted: FileDescriptor?
      do {
        accepted = try listener.withLock { (listener) throws(SystemError) in
          try listener?.accept()
        }
      } catch {
        log.warning("control socket: \(error)")
        return
      }
      guard let descriptor = accepted else { return }
      if clientCount >= Self.maximumClients {
        _ = try? UnixSocket.send(
          Array(ControlReply.refused("too many control connections").line.utf8)[...],
          on: descriptor)
        descriptor.close()
        continue
      }
      let client = ControlClient(
        id: nextClient.wrappingAdd(1, ordering: .relaxed).oldValue, descriptor: descriptor)
      clients.withLock { $0[client.id] = client }
      do {
        client.registration = try io.add(descriptor: client.rawDescriptor, events: .readable) {
          [self, id = client.id] events in serve(clientID: id, events: events)
        }
      } catch {
        log.warning("control socket: \(error)")
        _ = clients.withLock { $0.removeValue(forKey: client.id) }
      }
    }
  }

  private func serve(clientID: UInt64, events: Poll.Events) {
    guard let client = clients.withLock({ $0[clientID] }) else { return }
    if events.contains(.writable) { flush(client) }
    guard !client.hasFinishedSending else {
      if events.contains(.hangUp) || events.contains(.error) { drop(client) }
      return
    }
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
      read(client)
    }
  }

  private func read(_ client: ControlClient) {
    var buffer = [UInt8](repeating: 0, count: Self.readChunk)
    let result: FileDescriptor.TransferResult
    do {
      result = try client.read(into: &buffer)
    } catch {
      drop(client)
      return
    }
    guard case .transferred(let count) = result else { return }
    guard count > 0 else {
      // The client is done sending (socat after its input ends): it still gets what is
      // queued for it, then the connection ends.
      client.hasFinishedSending = true
      if client.queuedByteCount == 0 { drop(client) } else { waitToWrite(client) }
      return
    }
    // Replies are queued together and sent with one call: a flood of requests costs one
    // write per read, not one per request.
    for item in client.reader.receive(buffer[..<count]) {
      guard !client.isClosed else { return }
      send(Array(reply(to: item, from: client).line.utf8), to: client, flushing: false)
    }
    flush(client)
  }

  private func reply(to item: ControlLineReader.Item, from client: ControlClient) -> ControlReply {
    switch item {
    case .tooLong:
      return .refused(
        "request line longer than \(client.reader.maximumLineLength) bytes; skipped to its end")
    case .line(let line):
      let envelope: ControlEnvelope
      do {
        envelope = try ControlEnvelope.decode(line: line)
      } catch {
        return .refused(error.message, id: error.idJSON)
      }
      var reply: ControlReply
      if envelope.request == .subscribe {
        if !client.isSubscribed {
          client.isSubscribed = true
          subscriberCount.add(1, ordering: .relaxed)
        }
        reply = .ok()
      } else {
        reply = handler(envelope.request)
      }
      reply.idJSON = envelope.idJSON
      return reply
    }
  }

  /// Queues bytes for a client and sends what the socket takes now; a client whose queue
  /// passes the bound is disconnected.
  private func send(_ bytes: [UInt8], to client: ControlClient, flushing: Bool = true) {
    guard !client.isClosed else { return }
    client.queue(bytes)
    if client.queuedByteCount > Self.maximumQueuedBytes {
      log.warning(
        "control client \(client.id) does not read its replies "
          + "(\(client.queuedByteCount) bytes waiting); disconnected")
      drop(client)
      return
    }
    if flushing { flush(client) }
  }

  private func flush(_ client: ControlClient) {
    guard !client.isClosed, let registration = client.registration else { return }
    do {
      let drained = try client.sendQueued()
      if drained && client.hasFinishedSending {
        drop(client)
        return
      }
      if drained != client.isWaitingToWrite { return }
      client.isWaitingToWrite = !drained
      io.change(registration, events: drained ? .readable : [.readable, .writable])
    } catch {
      drop(client)
    }
  }

  /// Waits only for room to write: a client that has finished sending is not read again.
  private func waitToWrite(_ client: ControlClient) {
    guard let registration = client.registration else { return }
    client.isWaitingToWrite = true
    io.change(registration, events: .writable)
  }

  private func drop(_ client: ControlClient, removingFromTable: Bool = true) {
    if removingFromTable {
      guard clients.withLock({ $0.removeValue(forKey: client.id) }) != nil else { return }
    }
    if client.isSubscribed { subscriberCount.subtract(1, ordering: .relaxed) }
    if let registration = client.registration { io.remove(registration) }
    client.close()
  }
}

/// One connection to the control socket. Touched only on the I/O thread (and by `close` of
/// the server after its registration is removed), hence unchecked.
private final class ControlClient: @unchecked Sendable {
  let id: UInt64
  /// Closed when the client object ends (after its registration is removed and the server
  /// has let go of it); `close()` shuts it down at once.
  private let socket: FileDescriptor
  private(set) var isClosed = false
  var rawDescriptor: Int32 { socket.rawValue }
  var registration: IOLoop.Registration?
  var reader = ControlLineReader()
  var isSubscribed = false
  var subscriptionLinesDropped = 0
  var isWaitingToWrite = false
  /// The client shut its sending side: replies still queued are sent, then it is dropped.
  var hasFinishedSending = false
  private var outgoing: [UInt8] = []
  private var sentOffset = 0

  init(id: UInt64, descriptor: consuming FileDescriptor) {
    self.id = id
    socket = descriptor
  }

  var queuedByteCount: Int { outgoing.count - sentOffset }

  /// Reads what the client sent; end of file once closed.
  func read(into buffer: inout [UInt8]) throws(SystemError) -> FileDescriptor.TransferResult {
    guard !isClosed else { return .transferred(0) }
    return try socket.read(into: &buffer)
  }

  func queue(_ bytes: [UInt8]) {
    compact()
    outgoing.append(contentsOf: bytes)
  }

  /// Drops what was sent from the front of the queue: all of it once everything is sent, or
  /// the sent part once it is the larger half, so that a client that never quite catches up
  /// holds at most twice its unsent bytes, not everything ever queued.
  private func compact() {
    if sentOffset == outgoing.count {
      outgoing.removeAll(keepingCapacity: outgoing.capacity <= 65_536)
      sentOffset = 0
    } else if sentOffset >= 65_536, sentOffset * 2 >= outgoing.count {
      outgoing.removeFirst(sentOffset)
      sentOffset = 0
    }
  }

  /// Sends queued bytes until the socket is full; true when nothing is left.
  func sendQueued() throws(SystemError) -> Bool {
    guard !isClosed else { return true }
    while sentOffset < outgoing.count {
      switch try UnixSocket.send(outgoing[sentOffset...], on: socket) {
      case .transferred(let count): sentOffset += count
      case .wouldBlock:
        compact()
        return false
      }
    }
    compact()
    return true
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    shutdown(socket.rawValue, Int32(SHUT_RDWR))
  }
}
