import Control
import DeviceRuntime
import Glibc
import Synchronization
import SystemIO

/// Serves a control socket on an I/O loop: accepts many clients, reads each one's requests
/// through its own bounded `ControlLineReader`, answers every request with exactly one reply in
/// order, and sends `subscribe` lines. Everything a client does happens on the I/O thread and
/// never blocks it: replies wait in a per-client queue.
///
/// A client that does not read its replies is held back, as a pipe holds back a writer: once
/// more than `replyHighWaterBytes` wait for it, its requests are neither answered nor read
/// until it reads, so its queue stays bounded and it loses nothing by pausing. One held back
/// that reads nothing for `ControlSettings.stallLimitNanoseconds` is disconnected, logged once.
///
/// Abuse is bounded: at most `maximumClients` connections, shared out by `ControlAdmission`
/// (a user other than root and the daemon's own holds at most 64, and the last 32 slots are kept
/// for those two, so that idle connections, which keep their slots, never lock the operator
/// out); a refused one gets a refusal line and is closed, logged once a minute at most with a
/// count. One that takes longer than `ControlSettings.requestDeadlineNanoseconds` from a request
/// line's first byte to its newline is refused and disconnected (a client that trickles a byte
/// now and then holds its slot no longer). A `route` is answered off the I/O thread, at most
/// `RouteLoadSlots.maximum` at once in the process (the panel's loads included): reading a
/// large file stalls no other client, no network output and no device.
///
/// The listener, the clients and the checks on them belong to the I/O thread's handlers
/// (`LoopOwned`): `close` and the answers computed off the thread reach them through the loop.
package final class ControlServer: Sendable {
  /// Reply bytes waiting for a client past which its requests wait unread (back-pressure).
  static let replyHighWaterBytes = 256 << 10
  /// The most subscription bytes queued for a client before further lines are dropped
  /// (counted), so that a subscriber that does not read never grows a queue.
  static let maximumSubscriptionBacklog = 64 << 10
  /// The most clients at once (`ControlAdmission` shares them out); more are accepted, sent a
  /// refusal and closed at once.
  static let maximumClients = ControlAdmission.total
  /// The least time between two log lines about refused connections.
  static let refusalLogIntervalNanoseconds: Int64 = 60_000_000_000
  /// Bytes read from a client per readiness, so that one flooding client takes its turn.
  static let readChunk = 16 << 10
  /// How often held-back clients are checked for a stall.
  static let stallCheckNanoseconds: Int64 = 250_000_000

  /// Answers one request (every one but `subscribe`, which the server answers itself) of the
  /// peer with these credentials.
  package typealias Handler = @Sendable (ControlRequest, PeerCredentials) -> ControlReply

  package let path: String
  private let io: IOLoop
  private let log: Log
  private let handler: Handler
  private let stallLimitNanoseconds: Int64
  private let requestDeadlineNanoseconds: Int64
  private let served: LoopOwned<Served>
  private let backoff: ListenerBackoff
  /// The daemon's effective uid: its connections, as root's, are the operator's.
  private let ownUserID = geteuid()
  /// What other threads read: how many clients are connected, how many subscribed, and the
  /// subscription lines dropped.
  private let connectedCount = Atomic<Int>(0)
  private let subscriberCount = Atomic<Int>(0)
  private let linesDropped = Atomic<Int>(0)

  /// What the I/O thread's handlers own.
  private struct Served: ~Copyable {
    /// The listening socket and its registration.
    var listener: UnixSocketListener?
    var registration: IOLoop.Registration?
    var clients: [UInt64: ControlClient] = [:]
    var nextClient: UInt64 = 1
    /// The timer that checks held-back clients for a stall and partly sent requests for their
    /// deadline, while there are any.
    var stallCheck: IOLoop.Registration?
    /// Connections refused by `ControlAdmission` so far, how many of them the last log line
    /// counted, and the throttle of those lines.
    var refusals = 0
    var refusalsLogged = 0
    var refusalLog = LogThrottle(intervalNanoseconds: ControlServer.refusalLogIntervalNanoseconds)
  }

  /// Listens on `settings.path` and starts serving on `io`, after the I/O thread's round in
  /// progress: not while holding a lock its handlers take (see `IOLoop.exclusively`).
  ///
  /// - Throws: `UnixSocket.SocketError` (another process listens there, something that is not
  ///   a socket stands there, the group does not exist, the folder is not private).
  package init(settings: ControlSettings, io: IOLoop, log: Log, handler: @escaping Handler)
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
      try UnixSocket.preparePrivateDirectory(
        String(settings.path[..<slash]), traversable: groupID != nil)
    }
    path = settings.path
    self.io = io
    self.log = log
    self.handler = handler
    stallLimitNanoseconds = settings.stallLimitNanoseconds
    requestDeadlineNanoseconds = settings.requestDeadlineNanoseconds
    let listener = try UnixSocketListener(
      path: settings.path, mode: settings.mode, groupID: groupID)
    // Made once nothing else can fail before the catch below, which removes its timer.
    backoff = ListenerBackoff(name: "control socket", io: io, log: log)
    let descriptor = listener.descriptor.rawValue
    served = LoopOwned(Served(listener: consume listener), on: io)
    do {
      try io.exclusively { () throws(SystemError) in
        let registration = try io.add(descriptor: descriptor, events: .readable) {
          [self] _ in acceptWaiting()
        }
        served.access { $0.registration = registration }
      }
    } catch {
      backoff.cancel()
      io.exclusively { served.access { $0.listener.take()?.close() } }
      throw .system(error)
    }
  }

  /// Clients connected now.
  package var clientCount: Int { connectedCount.load(ordering: .relaxed) }

  /// Subscription lines dropped because a subscriber did not read them.
  package var subscriptionLinesDropped: Int { linesDropped.load(ordering: .relaxed) }

  /// True while at least one client has subscribed: only then are epoch lines worth building.
  package var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

  /// Hands a subscription line (ending in "\n") to every subscriber, from any thread: it is
  /// queued on the I/O thread, never written here.
  package func publish(_ line: String) {
    let bytes = Array(line.utf8)
    io.perform { [self] in
      let subscribers = served.access { $0.clients.values.filter(\.isSubscribed) }
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

  /// Stops listening, removes the socket and closes every connection, where no handler of the
  /// I/O thread runs; may be called any number of times, but not while holding a lock those
  /// handlers take.
  package func close() {
    io.exclusively {
      backoff.cancel()
      let (registrations, all, unlogged) = served.access { served in
        defer {
          served.clients.removeAll()
          served.refusalsLogged = served.refusals
          served.listener.take()?.close()
        }
        // The refusals since the last line, which the throttle held back, are counted once
        // more; with the listener gone, so that none is counted after this line.
        return (
          [served.registration.take(), served.stallCheck.take()], Array(served.clients.values),
          served.refusals > served.refusalsLogged ? served.refusals : nil
        )
      }
      for case let registration? in registrations { io.remove(registration) }
      if let unlogged { log.warning("control socket: \(unlogged) connections refused in all") }
      for client in all { drop(client, removingFromTable: false) }
    }
  }

  private func acceptWaiting() {
    for _ in 0..<64 {
      let accepted: FileDescriptor?
      do {
        accepted = try served.access { (served) throws(SystemError) in
          try served.listener?.accept()
        }
      } catch {
        if ListenerBackoff.isOutOfResources(error.errno),
          let registration = served.access({ $0.registration })
        {
          backoff.pause(registration, after: error, events: .readable)
        } else {
          log.warning("control socket: \(error)")
        }
        return
      }
      guard let descriptor = accepted else { return }
      // Who connected decides what the daemon does for it; a peer the kernel cannot name is
      // not served.
      guard let peer = try? PeerCredentials.of(socket: descriptor) else {
        descriptor.close()
        continue
      }
      let counts = served.access {
        $0.clients.values.reduce(into: [UInt32: Int]()) { $0[$1.peer.userID, default: 0] += 1 }
      }
      let decision = ControlAdmission.decide(
        peerUID: peer.userID, counts: counts, ownUID: ownUserID)
      if let refusal = decision.refusal {
        // Counted before the client reads its refusal: whoever sees the refusal sees the count.
        noteRefusal(of: peer, refusal)
        _ = try? UnixSocket.send(
          Array(ControlReply.refused(refusal).line.utf8)[...], on: descriptor)
        descriptor.close()
        continue
      }
      let id = served.access { served in
        defer { served.nextClient &+= 1 }
        return served.nextClient
      }
      let client = ControlClient(id: id, descriptor: descriptor, peer: peer)
      do {
        client.registration = try io.add(descriptor: client.rawDescriptor, events: .readable) {
          [self, id = client.id] events in serve(clientID: id, events: events)
        }
        served.access { $0.clients[client.id] = client }
        connectedCount.add(1, ordering: .relaxed)
      } catch {
        log.warning("control socket: \(error)")
      }
    }
  }

  /// Counts a refused connection and logs it, once a minute at most, with the count so far.
  private func noteRefusal(of peer: PeerCredentials, _ refusal: String) {
    let now = SystemClock.monotonicNanoseconds()
    let count: Int? = served.access { served in
      served.refusals += 1
      guard served.refusalLog.admit(now: now) != nil else { return nil }
      served.refusalsLogged = served.refusals
      return served.refusals
    }
    guard let count else { return }
    log.warning(
      "control socket: connection of \(peer) refused: \(refusal); \(count) refused so far")
  }

  private func serve(clientID: UInt64, events: Poll.Events) {
    guard let client = served.access({ $0.clients[clientID] }) else { return }
    let failed = events.contains(.hangUp) || events.contains(.error)
    if events.contains(.readable) || (failed && client.isReading) {
      read(client)
    } else if failed && !client.isReading {
      // Nothing more is read from a held-back client, and it is gone: so are its replies.
      drop(client)
    } else {
      pump(client)
    }
  }

  private func read(_ client: ControlClient) {
    guard client.isReading else { return }
    var buffer = [UInt8](repeating: 0, count: Self.readChunk)
    let result: FileDescriptor.TransferResult
    do {
      result = try client.read(into: &buffer)
    } catch {
      drop(client)
      return
    }
    guard case .transferred(let count) = result else { return }
    if count == 0 {
      // The client is done sending (socat after its input ends): it still gets what is
      // queued for it, then the connection ends.
      client.hasFinishedSending = true
      client.partialLineSince = nil
    } else {
      client.waitingItems = client.reader.receive(buffer[..<count])[...]
      // The deadline counts from the first byte of the line still unfinished.
      if !client.reader.isWithinLine {
        client.partialLineSince = nil
      } else if client.partialLineSince == nil || !client.waitingItems.isEmpty {
        client.partialLineSince = SystemClock.monotonicNanoseconds()
      }
    }
    pump(client)
  }

  /// Answers the client's waiting requests while its reply queue is under the high-water
  /// mark, sends what the socket takes, and waits for what comes next: its requests when it
  /// may send more, room to write while replies wait. Replies are sent together: a flood of
  /// requests costs one write per read, not one per request.
  private func pump(_ client: ControlClient) {
    while !client.isClosed {
      while client.queuedByteCount <= Self.replyHighWaterBytes, !client.isAwaitingReply,
        let item = client.waitingItems.popFirst()
      {
        switch answer(to: item, from: client) {
        case .now(let reply): client.queue(Array(reply.line.utf8))
        case .later(let envelope): answerInBackground(envelope, for: client)
        }
        guard !client.isClosed else { return }
      }
      let drained: Bool
      do {
        drained = try client.sendQueued(at: SystemClock.monotonicNanoseconds())
      } catch {
        drop(client)
        return
      }
      if client.hasFinishedSending && drained && client.waitingItems.isEmpty
        && !client.isAwaitingReply
      {
        drop(client)
        return
      }
      // Sending made room under the mark for requests still waiting: answer them too.
      guard !client.waitingItems.isEmpty, client.queuedByteCount <= Self.replyHighWaterBytes,
        !client.isAwaitingReply
      else { break }
    }
    wait(client)
  }

  /// Registers for what the client's state waits for, and checks a held-back client for a
  /// stall.
  private func wait(_ client: ControlClient) {
    guard !client.isClosed, let registration = client.registration else { return }
    let reading =
      !client.hasFinishedSending && client.waitingItems.isEmpty && !client.isAwaitingReply
      && client.queuedByteCount <= Self.replyHighWaterBytes
    var events: Poll.Events = reading ? .readable : []
    if client.queuedByteCount > 0 { events.insert(.writable) }
    // Time not read counts against no deadline: it starts again when reading does.
    if reading && !client.isReading && client.partialLineSince != nil {
      client.partialLineSince = SystemClock.monotonicNanoseconds()
    }
    client.isReading = reading
    if events != client.registeredEvents {
      client.registeredEvents = events
      io.change(registration, events: events)
    }
    if client.isHeldBack || client.partialLineSince != nil { checkForStalls() }
  }

  /// Runs the stall and deadline check while some client is held back or has a request partly
  /// sent.
  private func checkForStalls() {
    served.access { served in
      guard served.stallCheck == nil else { return }
      served.stallCheck = io.addTimer(everyNanoseconds: Self.stallCheckNanoseconds) {
        [weak self] in self?.dropStalledClients()
      }
    }
  }

  /// Disconnects every held-back client that has read nothing for the stall limit, and every
  /// client whose request has been partly sent for longer than the deadline; ends the check
  /// when none is left to watch.
  private func dropStalledClients() {
    let now = SystemClock.monotonicNanoseconds()
    let slow = served.access {
      $0.clients.values.filter {
        $0.isReading && $0.partialLineSince.map { now - $0 >= requestDeadlineNanoseconds } == true
      }
    }
    let deadline = requestDeadlineNanoseconds
    let seconds =
      deadline % 1_000_000_000 == 0 ? "\(deadline / 1_000_000_000)" : "\(Double(deadline) / 1e9)"
    for client in slow {
      log.warning(
        "control client \(client.id) did not finish its request within \(seconds) s; "
          + "disconnected")
      client.queue(
        Array(
          ControlReply.refused(
            "request not finished within \(seconds) s of its first byte; disconnected"
          ).line.utf8))
      _ = try? client.sendQueued(at: now)
      drop(client)
    }
    let held = served.access { $0.clients.values.filter(\.isHeldBack) }
    for client in held {
      // A client that reads slowly drains its socket before the socket takes more.
      client.noteUnreadBytes(at: now)
      let since = client.lastProgressNanoseconds
      guard now - since >= stallLimitNanoseconds else { continue }
      log.warning(
        "control client \(client.id) does not read its replies "
          + "(\(client.queuedByteCount) bytes waiting for \((now - since) / 1_000_000_000) s); "
          + "disconnected")
      drop(client)
    }
    let unwatched = served.access { served -> IOLoop.Registration? in
      guard !served.clients.values.contains(where: { $0.isHeldBack || $0.partialLineSince != nil })
      else { return nil }
      return served.stallCheck.take()
    }
    if let unwatched { io.remove(unwatched) }
  }

  /// A reply now, or a request to answer off the I/O thread.
  private enum Answer {
    case now(ControlReply)
    /// A command whose row says `.offIOThread` (`route`): reading its file may take seconds,
    /// which no other client or device waits for.
    case later(ControlEnvelope)
  }

  private func answer(to item: ControlLineReader.Item, from client: ControlClient) -> Answer {
    switch item {
    case .tooLong:
      return .now(
        .refused(
          "request line longer than \(client.reader.maximumLineLength) bytes; skipped to its end"))
    case .line(let line):
      let envelope: ControlEnvelope
      do {
        envelope = try ControlEnvelope.decode(line: line)
      } catch {
        return .now(.refused(error.message, id: error.idJSON))
      }
      let delivery = envelope.request.definition?.delivery ?? .now
      if delivery == .offIOThread { return .later(envelope) }
      var reply: ControlReply
      if delivery == .subscription {
        if !client.isSubscribed {
          client.isSubscribed = true
          subscriberCount.add(1, ordering: .relaxed)
        }
        reply = .ok()
      } else {
        reply = handler(envelope.request, client.peer)
      }
      reply.idJSON = envelope.idJSON
      return .now(reply)
    }
  }

  /// Answers `envelope` on a thread of its own (which takes the client's rights itself when it
  /// opens a file: they are per thread); the reply is queued on the I/O thread, and the
  /// client's later requests wait for it, so replies keep their order.
  private func answerInBackground(_ envelope: ControlEnvelope, for client: ControlClient) {
    // The process's own user (root's `ctl`) keeps a slot that the group's clients cannot take.
    let forOwner = client.peer.userID == geteuid()
    guard RouteLoadSlots.tryAcquire(forOwner: forOwner) else {
      let busy = ControlReply.refused(
        RouteLoadSlots.busyMessage(command: envelope.request.command, forOwner: forOwner),
        id: envelope.idJSON)
      client.queue(Array(busy.line.utf8))
      return
    }
    client.isAwaitingReply = true
    let handler = handler
    let peer = client.peer
    let worker = Mutex<pthread_t?>(nil)
    do {
      let started = try SystemThread.start(name: "mockgps-load") { [self, id = client.id] in
        var reply = handler(envelope.request, peer)
        reply.idJSON = envelope.idJSON
        // Runs after the round that started this thread, so `worker` is set by then.
        io.perform { [self, reply] in
          if let thread = worker.withLock({ $0.take() }) { SystemThread.join(thread) }
          RouteLoadSlots.release(forOwner: forOwner)
          guard let client = served.access({ $0.clients[id] }), !client.isClosed else { return }
          client.isAwaitingReply = false
          client.queue(Array(reply.line.utf8))
          pump(client)
        }
      }
      worker.withLock { $0 = started }
    } catch {
      RouteLoadSlots.release(forOwner: forOwner)
      client.isAwaitingReply = false
      let failed = ControlReply.refused(
        "\(envelope.request.command): \(error)", id: envelope.idJSON)
      client.queue(Array(failed.line.utf8))
    }
  }

  /// Queues a subscription line for a client and sends what the socket takes now.
  private func send(_ bytes: [UInt8], to client: ControlClient) {
    guard !client.isClosed else { return }
    client.queue(bytes)
    pump(client)
  }

  private func drop(_ client: ControlClient, removingFromTable: Bool = true) {
    if removingFromTable {
      guard served.access({ $0.clients.removeValue(forKey: client.id) }) != nil else { return }
    }
    connectedCount.subtract(1, ordering: .relaxed)
    if client.isSubscribed { subscriberCount.subtract(1, ordering: .relaxed) }
    if let registration = client.registration { io.remove(registration) }
    client.close()
  }
}

/// One connection to the control socket. Touched only where the I/O thread's handlers run
/// (`IOLoop.isDispatchingHere`, as the server's `Served`), hence unchecked.
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
  /// Requests read but not answered yet: they wait while the reply queue is over the mark.
  var waitingItems: ArraySlice<ControlLineReader.Item> = []
  /// The events the registration waits for now.
  var registeredEvents: Poll.Events = .readable
  /// False while the client is held back (or has finished sending): its socket is not read.
  var isReading = true
  /// The client shut its sending side: replies still queued are sent, then it is dropped.
  var hasFinishedSending = false
  /// A request is answered off the I/O thread: the client's next requests wait for its reply.
  var isAwaitingReply = false
  /// When the first byte of the request line still unfinished was read (or reading resumed
  /// after the client was held back), while there is one.
  var partialLineSince: Int64?
  /// When the socket last took bytes, or had taken everything queued, or its peer was seen
  /// reading.
  private(set) var lastProgressNanoseconds: Int64 = 0
  /// What the peer had left unread in the socket when last asked.
  private var lastUnreadBytes: Int?

  /// Replies wait for the client while it is not read (held back at the high-water mark, or
  /// done sending): it is checked for a stall.
  var isHeldBack: Bool { !isClosed && !isReading && queuedByteCount > 0 }

  /// Counts the peer's reading as progress: the bytes it left unread in the socket went down.
  func noteUnreadBytes(at now: Int64) {
    guard !isClosed, let unread = UnixSocket.unreadByteCount(on: socket) else { return }
    if let last = lastUnreadBytes, unread < last { lastProgressNanoseconds = now }
    lastUnreadBytes = unread
  }
  private var outgoing: [UInt8] = []
  private var sentOffset = 0

  /// Who connected, as the kernel recorded it.
  let peer: PeerCredentials

  init(id: UInt64, descriptor: consuming FileDescriptor, peer: PeerCredentials) {
    self.id = id
    socket = descriptor
    self.peer = peer
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

  /// Sends queued bytes until the socket is full; true when nothing is left. `now` is kept as
  /// the last progress when the socket takes bytes.
  func sendQueued(at now: Int64) throws(SystemError) -> Bool {
    guard !isClosed else { return true }
    var progressed = false
    defer {
      compact()
      if progressed || sentOffset == outgoing.count { lastProgressNanoseconds = now }
    }
    while sentOffset < outgoing.count {
      switch try UnixSocket.send(outgoing[sentOffset...], on: socket) {
      case .transferred(let count):
        sentOffset += count
        progressed = progressed || count > 0
      case .wouldBlock: return false
      }
    }
    return true
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    shutdown(socket.rawValue, Int32(SHUT_RDWR))
  }
}
