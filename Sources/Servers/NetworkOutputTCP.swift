import DeviceRuntime
import Glibc
import Receiver
import Synchronization
import SystemIO

/// Serves the epochs to any number of TCP clients, on an `IOLoop`.
///
/// Every epoch goes to every client whole, as it falls due. A client that has not taken all of
/// the previous epoch yet loses the new one whole (counted), so a slow client never slows the
/// others, the device or the epoch thread; a client that connects gets the next whole epoch.
/// What clients write is read and dropped: replies to commands go to the serial device only.
///
/// Abuse is bounded: at most `maximumClients` at once (more are accepted and closed), and a
/// client that takes nothing for the stall limit (a minute by default) while its epoch waits is
/// disconnected, so clients that never read cannot hold every slot. There is no request to wait
/// for, so no other deadline.
public final class TCPOutput: Sendable {
  /// The address listened on, with the port the system picked for port 0.
  public let address: InternetAddress
  private let io: IOLoop
  private let state: Mutex<State>
  private let backoff: ListenerBackoff
  private let log: Log
  private let stallLimitNanoseconds: Int64
  /// The most clients at once; more are accepted and closed at once.
  package static let maximumClients = 256
  /// A minute: a client that pauses keeps its connection (losing whole epochs meanwhile); one
  /// that will never read again frees its slot.
  public static let defaultStallLimitNanoseconds: Int64 = 60_000_000_000
  /// The send queue asked for each client (the kernel doubles it).
  static let sendQueueBytes: Int32 = 8192

  /// Counters of the clients and what they lost.
  public struct Statistics: Hashable, Sendable {
    /// Clients connected now.
    public var clients = 0
    /// Clients that ever connected.
    public var connections = 0
    /// Epochs sent whole to a client (one per client).
    public var epochsSent = 0
    /// Epochs a client lost because it had not taken the previous one yet.
    public var epochsDropped = 0
    /// Bytes clients wrote, read and dropped.
    public var bytesIgnored = 0
    /// Connections closed at once because `maximumClients` were connected.
    public var refused = 0
    /// Clients disconnected for taking nothing for the stall limit.
    public var stalled = 0
  }

  private struct State: ~Copyable {
    var listener: FileDescriptor?
    var listenerRegistration: IOLoop.Registration?
    var clients: [UInt64: Client] = [:]
    var nextClient: UInt64 = 0
    var statistics = Statistics()
    var stopped = false
  }

  /// One connected client: its socket, its registration and what it has not taken yet of its
  /// current epoch. Used only under the state's lock.
  private final class Client {
    let socket: FileDescriptor
    var registration: IOLoop.Registration?
    var unsent: ArraySlice<UInt8> = []
    /// When the socket last took bytes (or the client connected).
    var lastProgressNanoseconds: Int64
    /// How fast what it writes is read and dropped (`inputLine`).
    var inputPace = ClientInputPace()
    /// True while it has written more than the line takes: its socket is not watched for
    /// input until `inputResume` fires, and TCP's flow control holds the client back.
    var inputPaused = false
    /// Reads on once the line has carried enough; made when first needed.
    var inputResume: IOLoop.Registration?

    init(socket: consuming FileDescriptor, now: Int64) {
      self.socket = socket
      lastProgressNanoseconds = now
    }
  }

  /// Listens on `address` (port 0: a free one); `start()` starts accepting. A client that takes
  /// nothing for `stallLimitNanoseconds` while an epoch waits for it is disconnected.
  ///
  /// - Throws: `SystemError` naming the address when it cannot be listened on (in use, not
  ///   an address of this machine).
  public init(
    address: InternetAddress, io: IOLoop, log: Log = Log(level: .warning),
    stallLimitNanoseconds: Int64 = TCPOutput.defaultStallLimitNanoseconds
  ) throws(SystemError) {
    let listener = try InternetSocket.listen(on: address)
    self.address = InternetAddress(
      host: address.host, port: try InternetSocket.boundPort(of: listener))
    self.io = io
    self.log = log
    self.stallLimitNanoseconds = stallLimitNanoseconds
    state = Mutex(State(listener: listener))
    backoff = ListenerBackoff(name: "TCP output on \(self.address)", io: io, log: log)
  }

  /// Starts accepting clients; does nothing after `stop()`.
  public func start() throws(SystemError) {
    try state.withLock { (state) throws(SystemError) in
      guard !state.stopped, state.listenerRegistration == nil,
        let descriptor = state.listener?.rawValue
      else { return }
      state.listenerRegistration = try io.add(descriptor: descriptor, events: .readable) {
        [self] _ in acceptClients()
      }
    }
  }

  /// A copy of the counters.
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// Sends an epoch to every client that has taken the previous one, from the calling thread
  /// (the epoch thread, at real-time priority): what a client's socket takes now leaves at
  /// once, without waiting for the I/O thread. The rest, and the clients to disconnect, are
  /// left to the I/O thread; returns at once.
  ///
  /// Handed to the I/O thread, which runs at the ordinary priority, every epoch waited for its
  /// wake-up: a time user's offset through gpsd and chrony grew by a floor of 0.4 ms beside four
  /// busy loops (least of twelve samples 120.84-120.91 ms against 120.45 quiet), and by more in
  /// a loaded test suite, where the test's 1 ms failed.
  public func send(_ epoch: [UInt8]) {
    let now = SystemClock.monotonicNanoseconds()
    let left = state.withLock { state in
      var left: [(id: UInt64, work: LeftWork)] = []
      for (id, client) in state.clients {
        guard client.unsent.isEmpty else {
          if now - client.lastProgressNanoseconds >= stallLimitNanoseconds {
            left.append((id, .stalled))
          } else {
            state.statistics.epochsDropped += 1
          }
          continue
        }
        client.unsent = epoch[...]
        state.statistics.epochsSent += 1
        if !sendWhatFits(client) {
          left.append((id, .failed))
        } else if !client.unsent.isEmpty {
          left.append((id, .waitForRoom))
        }
      }
      return left
    }
    guard !left.isEmpty else { return }
    io.perform { [self] in settle(left, at: now) }
  }

  /// What `send` leaves to the I/O thread for a client.
  private enum LeftWork {
    /// It took nothing for the stall limit while an epoch waited: disconnected.
    case stalled
    /// Its socket failed: disconnected.
    case failed
    /// Its socket took part of the epoch: the rest when it has room.
    case waitForRoom
  }

  /// On the I/O thread, what `send` left (see `LeftWork`); a client gone meanwhile is skipped.
  private func settle(_ left: [(id: UInt64, work: LeftWork)], at now: Int64) {
    state.withLock { state in
      for (id, work) in left {
        guard let client = state.clients[id] else { continue }
        switch work {
        case .stalled:
          // It may have taken bytes since (helper-115): then it is not stalled.
          guard !client.unsent.isEmpty,
            now - client.lastProgressNanoseconds >= stallLimitNanoseconds
          else { continue }
          log.warning(
            "TCP output on \(address): a client took nothing for "
              + "\((now - client.lastProgressNanoseconds) / 1_000_000_000) s; disconnected")
          state.statistics.stalled += 1
          disconnect(id, &state)
        case .failed:
          disconnect(id, &state)
        case .waitForRoom:
          if !flush(client) { disconnect(id, &state) }
        }
      }
    }
  }

  /// Stops accepting, disconnects every client and closes the sockets; any number of times.
  public func stop() {
    let registrations = state.withLock { state in
      state.stopped = true
      defer { state.listenerRegistration = nil }
      return [state.listenerRegistration]
        + state.clients.values.flatMap {
          [$0.registration, $0.inputResume]
        }
    }
    for case let registration? in registrations { io.remove(registration) }
    backoff.cancel()
    // Removed first, closed after: the loop never serves a closed number.
    state.withLock { state in
      state.clients = [:]
      state.statistics.clients = 0
      _ = state.listener.take()
    }
  }

  private func acceptClients() {
    state.withLock { state in
      while !state.stopped, let descriptor = state.listener?.rawValue {
        let accepted: FileDescriptor?
        do throws(SystemError) {
          accepted = try InternetSocket.accept(from: descriptor)
        } catch {
          // Out of descriptors (or another failure): rest instead of spinning on a listener
          // that stays readable.
          if let registration = state.listenerRegistration {
            backoff.pause(registration, after: error, events: .readable)
          }
          return
        }
        guard let socket = accepted else { return }
        guard state.clients.count < Self.maximumClients else {
          state.statistics.refused += 1
          continue
        }
        // A small send queue, as a serial line has: a client that stops reading is behind by
        // a few epochs at most, and loses the next ones whole.
        var queueBytes = Self.sendQueueBytes
        _ = setsockopt(
          socket.rawValue, SOL_SOCKET, SO_SNDBUF, &queueBytes, socklen_t(MemoryLayout<Int32>.size))
        let client = Client(socket: socket, now: SystemClock.monotonicNanoseconds())
        let id = state.nextClient
        state.nextClient += 1
        client.registration = try? io.add(
          descriptor: client.socket.rawValue, events: .readable,
          handler: { [self] events in serve(id, events: events) })
        guard client.registration != nil else { continue }
        state.clients[id] = client
        state.statistics.clients += 1
        state.statistics.connections += 1
      }
    }
  }

  /// Serves a client's socket: takes what it wrote, sends what it has not taken yet.
  private func serve(_ id: UInt64, events: Poll.Events) {
    state.withLock { state in
      guard let client = state.clients[id] else { return }
      var open = events.intersection([.hangUp, .error]).isEmpty
      if open, events.contains(.readable) {
        let read = drainInput(client)
        state.statistics.bytesIgnored += read.count
        open = !read.ended
        if open { pauseInputIfAhead(id, client) }
      }
      if open, events.contains(.writable) { open = flush(client) }
      if !open { disconnect(id, &state) }
    }
  }

  /// How much of what a client wrote one wake-up reads and drops at most: a client that
  /// writes without end leaves the I/O thread to the other devices and clients in between (the
  /// socket stays readable, so the thread comes back).
  static let inputReadLimit = 65_536
  /// The line at whose rate what a client writes is read and dropped (`ClientInputPace`, 64 KiB
  /// ahead): the fastest serial port a receiver offers, 92 KB a second, far more than any
  /// client of a receiver's output writes, and a flood costs next to nothing.
  static let inputLine = ClientInputPace.fastestLine
  private static let inputReadSize = 4096

  /// Reads and drops what a client wrote, `inputReadLimit` at most and no faster than
  /// `inputLine`; `ended` when it closed or failed.
  private func drainInput(_ client: Client) -> (count: Int, ended: Bool) {
    var buffer = [UInt8](repeating: 0, count: Self.inputReadSize)
    var count = 0
    while count < Self.inputReadLimit, inputResumeNanoseconds(client) == nil {
      switch try? client.socket.read(into: &buffer) {
      case .transferred(let read) where read > 0:
        count += read
        client.inputPace.took(
          read, atNanoseconds: SystemClock.monotonicNanoseconds(), pacing: Self.inputLine,
          timeScale: 1)
      case .wouldBlock: return (count, false)
      default: return (count, true)
      }
    }
    return (count, false)
  }

  /// When the next read of a client's input may be taken (nil: now).
  private func inputResumeNanoseconds(_ client: Client) -> Int64? {
    client.inputPace.resumeNanoseconds(
      now: SystemClock.monotonicNanoseconds(), readBytes: Self.inputReadSize,
      pacing: Self.inputLine, timeScale: 1)
  }

  /// Stops watching a client's input while it has written more than the line takes, and has
  /// the timer watch it again when the line has carried enough.
  private func pauseInputIfAhead(_ id: UInt64, _ client: Client) {
    guard let resume = inputResumeNanoseconds(client) else { return }
    client.inputPaused = true
    if let registration = client.registration {
      io.change(registration, events: events(of: client))
    }
    let timer =
      client.inputResume
      ?? io.addOneShotTimer { [self] in
        state.withLock { state in
          guard let client = state.clients[id] else { return }
          client.inputPaused = false
          if let registration = client.registration {
            io.change(registration, events: events(of: client))
          }
        }
      }
    client.inputResume = timer
    io.arm(timer, atMonotonicNanoseconds: resume)
  }

  /// What a client's socket is watched for: its input unless paused, and room while it has
  /// bytes not taken yet (hang-ups and errors are reported all the same).
  private func events(of client: Client) -> Poll.Events {
    (client.inputPaused ? [] : Poll.Events.readable).union(client.unsent.isEmpty ? [] : .writable)
  }

  /// Sends what the socket takes of the client's unsent bytes now, and waits for room for the
  /// rest; false when the client is gone. On the I/O thread.
  private func flush(_ client: Client) -> Bool {
    guard sendWhatFits(client) else { return false }
    if let registration = client.registration {
      io.change(registration, events: events(of: client))
    }
    return true
  }

  /// Sends what the socket takes of the client's unsent bytes now (it never blocks); false
  /// when the socket failed. From any thread, under the state's lock.
  private func sendWhatFits(_ client: Client) -> Bool {
    while !client.unsent.isEmpty {
      switch try? InternetSocket.send(client.unsent, on: client.socket) {
      case .transferred(let sent):
        client.unsent = client.unsent.dropFirst(sent)
        if sent > 0 { client.lastProgressNanoseconds = SystemClock.monotonicNanoseconds() }
      case .wouldBlock: return true
      case nil: return false
      }
    }
    return true
  }

  /// Removes a client's registration, then closes its socket (on the I/O thread, where the
  /// removal takes effect at once).
  private func disconnect(_ id: UInt64, _ state: inout State) {
    guard let client = state.clients.removeValue(forKey: id) else { return }
    state.statistics.clients -= 1
    if let registration = client.registration { io.remove(registration) }
    if let timer = client.inputResume { io.remove(timer) }
  }
}
