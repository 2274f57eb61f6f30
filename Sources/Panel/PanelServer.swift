import CMicroHTTPD
import Glibc
import MockGPS
import Synchronization
import SystemIO

/// The browser panel of `--panel`: libmicrohttpd on its own polling thread, bound to the
/// requested address only, serving the page, each device's status, route and events, and
/// its commands through the control layer. Every request passes `PanelPolicy` first.
public final class PanelServer: Sendable {
  /// Event streams at once; more get 503.
  public static let maximumStreams = 16
  /// Connections at once (streams included); more are refused by the library.
  static let maximumConnections: UInt32 = 64
  /// Memory per connection for headers and buffers.
  static let connectionMemoryLimit = 64 << 10
  /// Seconds of silence before the library closes a connection (a suspended stream does not
  /// count down).
  static let connectionTimeoutSeconds: UInt32 = 60
  /// Connections still sending their request's headers at once: 16 of the 64 slots stay for
  /// connections whose request was read (the token holder's).
  static let maximumWaitingConnections = 48
  /// The longest a connection may take to send its request's headers: a browser sends them in
  /// one packet, a slowloris trickles them to hold the slot.
  static let headerDeadlineNanoseconds: Int64 = 10_000_000_000
  /// A quiet stream gets a keepalive comment this often: writing it resumes the suspended
  /// connection, which is how the library notices a browser that went away (a silent device,
  /// such as a paused replay, would otherwise hold the stream's slot until the timeout).
  static let keepaliveNanoseconds: Int64 = 1_000_000_000
  /// The kernel's send buffer of a connection.
  static let sendBufferBytes = 64 << 10
  /// Where Debian's libjs-leaflet puts its files.
  public static let leafletDirectory = "/usr/share/javascript/leaflet"

  /// The address served, with the port it got.
  public let address: InternetAddress
  let policy: PanelPolicy
  let devices: PanelDevices
  /// The socket bound at `listen`; libmicrohttpd has a duplicate of it.
  private let listener: PanelListener
  private let daemon = Mutex(LibraryHandle(nil))
  private let streams = Mutex<[ObjectIdentifier: OpenStream]>([:])
  /// Connections still sending their request, and every open connection's socket (by the
  /// library's connection pointer), to cut what `PanelConnectionGate` says. Cutting is a
  /// `shutdown` under this lock: the library forgets a connection here before it closes its
  /// socket, so a cut never reaches a reused descriptor.
  private let connections = Mutex(
    OpenConnections(
      gate: PanelConnectionGate(
        maximumWaiting: maximumWaitingConnections,
        headerDeadlineNanoseconds: headerDeadlineNanoseconds)))
  let isStopping = Atomic<Bool>(false)
  /// Commands answered on threads of their own (`route`), until their request completes.
  let loads = Mutex<[ObjectIdentifier: RunningCommandLoad]>([:])
  private let keepalive: StoppableThread
  /// Event lines dropped because a browser did not read them, over every stream.
  private let linesDropped = Atomic<Int>(0)

  /// The URL printed at start: `http://127.0.0.1:PORT/?token=TOKEN`.
  public var url: String { "http://\(address)/?token=\(policy.token.text)" }

  /// Event streams open now.
  public var streamCount: Int { streams.withLock { $0.count } }

  /// The bytes every event stream's queue holds in memory.
  package var eventStreamBytesHeld: Int {
    streams.withLock { $0.values.reduce(0) { $0 + $1.stream.bytesHeld } }
  }

  /// Event lines dropped for browsers that did not read them.
  public var eventLinesDropped: Int { linesDropped.load(ordering: .relaxed) }

  /// Binds `address` now (port 0: a free one), before any device opens, so that a port in
  /// use fails the run with nothing to clean up; `start` serves on it.
  public static func listen(on address: InternetAddress) throws(SystemError) -> PanelListener {
    let socket = try InternetSocket.listen(on: address)
    // Connections inherit it: a browser that stops reading holds this much in the kernel, not
    // the megabytes autotuning would grow to, and then loses lines (counted) in its queue.
    var sendBuffer = Int32(sendBufferBytes)
    _ = setsockopt(
      socket.rawValue, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
    let port = try InternetSocket.boundPort(of: socket)
    return PanelListener(socket: socket, address: InternetAddress(host: address.host, port: port))
  }

  /// Serves `emulators` (ids in order) on `listener` with `token`; route files are loaded
  /// only from beneath `filesDirectory` (none when nil), which is opened now: a later swap of
  /// its name for a link leads nowhere new.
  public init(
    listener: PanelListener, emulators: [Emulator], token: PanelToken,
    filesDirectory: String? = nil
  ) throws(SystemError) {
    address = listener.address
    self.listener = listener
    policy = PanelPolicy(
      token: token, host: address.host, port: address.port, deviceCount: emulators.count)
    devices = PanelDevices(
      emulators: emulators,
      filesFolder: try filesDirectory.map { (path) throws(SystemError) in
        try OpenFolder(path: path)
      })
    keepalive = try StoppableThread(name: "mockgps-panel")
    let duplicate = dup(listener.socket.rawValue)
    guard duplicate >= 0 else {
      throw SystemError("serve panel on", path: "\(address)", errno: errno)
    }
    let started = mockgps_mhd_start(
      duplicate, Self.maximumConnections, Self.connectionMemoryLimit,
      Self.connectionTimeoutSeconds, panelAccessHandler, panelRequestCompleted,
      panelConnectionNotified, Unmanaged.passUnretained(self).toOpaque())
    guard let started else {
      Glibc.close(duplicate)
      throw SystemError("serve panel on", path: "\(address)", errno: EIO)
    }
    daemon.withLock { $0 = LibraryHandle(started) }
    try keepalive.start { [self] in sendKeepalives() }
  }

  /// Ends every stream and stops serving. Call it before the emulators stop.
  public func stop() {
    guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    keepalive.stop()
    // The library must get every suspended connection back before it stops. A load's thread
    // is not waited for (a large file takes seconds): it ends on its own, its answer unsent,
    // and touches the library no more.
    let running = loads.withLock { loads in
      defer { loads.removeAll() }
      return Array(loads.values)
    }
    for entry in running { entry.load.abandon() }
    let open = streams.withLock { Array($0.values) }
    for stream in open {
      if let token = stream.token { stream.emulator.removeSubscriber(token) }
      stream.stream.finish()
    }
    let stopped = daemon.withLock { handle in
      defer { handle = LibraryHandle(nil) }
      return handle
    }
    if let pointer = stopped.pointer { MHD_stop_daemon(pointer) }
    for entry in running { SystemThread.detach(entry.thread) }
  }

  deinit { stop() }

  // MARK: Requests (on libmicrohttpd's thread)

  /// One call of the access handler: decides on the request at its first call, gathers a
  /// command's body over the next ones, answers at the last.
  fileprivate func handle(
    _ connection: OpaquePointer?, path: String, method: String,
    upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
    context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> Bool {
    if let pending = context?.pointee {
      let body = Unmanaged<PendingBody>.fromOpaque(pending).takeUnretainedValue()
      if let uploadSize, uploadSize.pointee > 0 {
        body.append(upload, count: uploadSize.pointee)
        uploadSize.pointee = 0
        return true
      }
      if let load = body.load {
        // Called again once the command's thread stored its answer and resumed the connection.
        return queue(load.response ?? .text(500, "no answer"), on: connection)
      }
      guard !body.isTooLarge else { return queue(PanelPolicy.bodyTooLarge, on: connection) }
      return answerCommand(body, on: connection)
    }
    if let connection {
      connections.withLock { $0.gate.requestRead(UInt(bitPattern: Int(bitPattern: connection))) }
    }
    let request = Self.request(connection, path: path, method: method)
    switch policy.decide(request) {
    case .refuse(let response):
      // Without the token a connection gets no second request, so it cannot stay idle in a
      // slot either.
      return queue(response, on: connection, headers: [("Connection", "close")])
    case .serve(.command(let device)):
      context?.pointee = Unmanaged.passRetained(PendingBody(device: device)).toOpaque()
      return true
    case .serve(let route):
      return serve(route, on: connection)
    }
  }

  /// A request's method, path, query, `Host` (and how many), `Origin`, `Sec-Fetch-Site` and
  /// `Content-Length`, as parsed by the library.
  private static func request(_ connection: OpaquePointer?, path: String, method: String)
    -> PanelRequest
  {
    func header(_ name: String) -> String? {
      MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }
    let query = QueryCollector()
    _ = MHD_get_connection_values(
      connection, .GET_ARGUMENT_KIND,
      { context, _, key, value in
        guard let context, let key else { return MHD_Result.YES }
        Unmanaged<QueryCollector>.fromOpaque(context).takeUnretainedValue().pairs.append(
          (String(cString: key), value.map { String(cString: $0) } ?? ""))
        return MHD_Result.YES
      }, Unmanaged.passUnretained(query).toOpaque())
    let hosts = HeaderCounter(name: "host")
    _ = MHD_get_connection_values(
      connection, .HEADER_KIND,
      { context, _, key, _ in
        guard let context, let key else { return MHD_Result.YES }
        let counter = Unmanaged<HeaderCounter>.fromOpaque(context).takeUnretainedValue()
        if String(cString: key).lowercased() == counter.name { counter.count += 1 }
        return MHD_Result.YES
      }, Unmanaged.passUnretained(hosts).toOpaque())
    return PanelRequest(
      method: method, path: path, query: query.pairs, host: header("Host"),
      hostCount: hosts.count, origin: header("Origin"), fetchSite: header("Sec-Fetch-Site"),
      contentLength: header("Content-Length").flatMap { Int($0) })
  }

  private func serve(_ route: PanelRoute, on connection: OpaquePointer?) -> Bool {
    var response: PanelResponse
    switch route {
    case .page(let file):
      let bytes = Self.pageBytes(file)
      response = PanelResponse(
        status: 200, contentType: file.contentType,
        body: file == .index ? policy.indexPage(bytes) : bytes)
    case .leaflet(let name):
      response = Self.leafletFile(name)
    case .devices:
      response = devices.list(leaflet: Self.hasLeaflet)
    case .status(let device):
      response = devices.status(device, panelLinesDropped: eventLinesDropped)
    case .route(let device):
      response = devices.route(device)
    case .events(let device):
      return openStream(device, on: connection)
    case .command(let device):
      response = devices.command(device, body: [])
    }
    return queue(response, on: connection)
  }

  private static func pageBytes(_ file: PanelPageFile) -> [UInt8] {
    switch file {
    case .index: return PackageResources.index_html
    case .script: return PackageResources.panel_js
    case .style: return PackageResources.panel_css
    }
  }

  /// True when Debian's libjs-leaflet is installed.
  static var hasLeaflet: Bool { access(leafletDirectory + "/leaflet.js", R_OK) == 0 }

  /// A file of the allow-list from libjs-leaflet's folder; 404 when it is not installed.
  private static func leafletFile(_ name: String) -> PanelResponse {
    let path = leafletDirectory + "/" + name
    guard let bytes = readWholeFile(path, limit: 4 << 20) else {
      return .text(404, "not found: libjs-leaflet is not installed")
    }
    let type: String
    if name.hasSuffix(".js") {
      type = "text/javascript; charset=utf-8"
    } else if name.hasSuffix(".css") {
      type = "text/css; charset=utf-8"
    } else {
      type = "image/png"
    }
    return PanelResponse(status: 200, contentType: type, body: bytes)
  }

  private static func readWholeFile(_ path: String, limit: Int) -> [UInt8]? {
    guard let file = try? FileDescriptor.open(path, flags: O_RDONLY) else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while bytes.count <= limit {
      guard case .transferred(let count) = try? file.read(into: &buffer) else { return nil }
      if count == 0 { return bytes }
      bytes += buffer[..<count]
    }
    return nil
  }

  /// Queues a whole response with the headers every response carries, and `headers`.
  func queue(
    _ response: PanelResponse, on connection: OpaquePointer?, headers: [(String, String)] = []
  ) -> Bool {
    let made = response.body.withUnsafeBytes {
      MHD_create_response_from_buffer(
        $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return false }
    defer { MHD_destroy_response(made) }
    Self.addHeaders(
      [("Content-Type", response.contentType)] + response.headers + headers, to: made)
    return MHD_queue_response(connection, UInt32(response.status), made) == MHD_Result.YES
  }

  private static func addHeaders(_ headers: [(String, String)], to response: OpaquePointer) {
    for (name, value) in PanelResponse.commonHeaders + headers {
      _ = MHD_add_response_header(response, name, value)
    }
  }

  // MARK: Event streams

  /// Opens `GET /api/events` for a device: the status event, then each epoch's line.
  private func openStream(_ device: Int, on connection: OpaquePointer?) -> Bool {
    let emulator = devices.emulators[device]
    let first = ServerSentEvents.event("status", data: emulator.handle(.status).line)
    let stream = PanelEventStream(first: first, now: monotonicNanoseconds())
    let admitted = streams.withLock { streams -> Bool in
      guard !isStopping.load(ordering: .relaxed), streams.count < Self.maximumStreams else {
        return false
      }
      streams[ObjectIdentifier(stream)] = OpenStream(
        stream: stream, emulator: emulator, token: nil)
      return true
    }
    guard admitted else {
      return queue(
        .text(503, "too many event streams (at most \(Self.maximumStreams))"), on: connection)
    }
    stream.attach(connection)
    stream.onClose { [weak self, weak stream] in
      if let self, let stream { self.closeStream(stream) }
    }
    let made = MHD_create_response_from_callback(
      UInt64.max, 4096, panelStreamRead, Unmanaged.passRetained(stream).toOpaque(),
      panelStreamFree)
    guard let made else {
      closeStream(stream)
      return false
    }
    defer { MHD_destroy_response(made) }
    Self.addHeaders([("Content-Type", "text/event-stream; charset=utf-8")], to: made)
    let token = emulator.addSubscriber { [weak self, stream] line in
      if !stream.queue(ServerSentEvents.event(data: line), now: monotonicNanoseconds()) {
        self?.linesDropped.add(1, ordering: .relaxed)
      }
    }
    streams.withLock { $0[ObjectIdentifier(stream)]?.token = token }
    return MHD_queue_response(connection, 200, made) == MHD_Result.YES
  }

  /// Forgets a stream whose connection ended.
  fileprivate func closeStream(_ stream: PanelEventStream) {
    guard let open = streams.withLock({ $0.removeValue(forKey: ObjectIdentifier(stream)) })
    else { return }
    if let token = open.token { open.emulator.removeSubscriber(token) }
    stream.finish()
  }

  // MARK: Connections (opened and closed on libmicrohttpd's thread)

  /// A connection opened or closed: cuts the connections waiting longest when too many wait.
  fileprivate func connection(_ connection: OpaquePointer, opened: Bool) {
    let id = UInt(bitPattern: Int(bitPattern: connection))
    connections.withLock { open in
      guard opened else {
        open.sockets[id] = nil
        open.gate.closed(id)
        return
      }
      open.sockets[id] = mockgps_mhd_connection_socket(connection)
      open.cut(open.gate.opened(id, now: monotonicNanoseconds()))
    }
  }

  /// Connections waiting for their headers now.
  public var waitingConnectionCount: Int { connections.withLock { $0.gate.waitingCount } }

  /// The keepalive thread: every interval, a comment on each stream that had nothing queued,
  /// and the connections past the header deadline cut.
  private func sendKeepalives() {
    var deadline = monotonicNanoseconds() + Self.keepaliveNanoseconds
    while keepalive.shouldRun {
      guard keepalive.sleep(untilMonotonicNanoseconds: deadline) != .stopped else { return }
      let now = monotonicNanoseconds()
      guard now >= deadline else { continue }
      deadline = now + Self.keepaliveNanoseconds
      connections.withLock { $0.cut($0.gate.expired(now: now)) }
      for open in streams.withLock({ Array($0.values) })
      where open.stream.isQuiet(since: now - Self.keepaliveNanoseconds) {
        open.stream.queue(ServerSentEvents.keepalive, now: now)
      }
    }
  }

  private struct OpenStream: Sendable {
    let stream: PanelEventStream
    let emulator: Emulator
    var token: Emulator.SubscriberToken?
  }
}

/// The listening socket of a panel, bound before the devices open; closed when the last
/// holder lets go of it.
public final class PanelListener: Sendable {
  fileprivate let socket: FileDescriptor
  /// The address bound, with the port it got.
  public let address: InternetAddress

  fileprivate init(socket: consuming FileDescriptor, address: InternetAddress) {
    self.socket = socket
    self.address = address
  }
}

/// The panel's open connections: their sockets, and the gate on those still sending a request.
private struct OpenConnections: Sendable {
  var gate: PanelConnectionGate
  var sockets: [UInt: Int32] = [:]

  /// Shuts the connections `ids` down: the library reads their end and closes them.
  func cut(_ ids: [UInt]) {
    for id in ids {
      if let socket = sockets[id], socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }
}

/// A command's body as it arrives, bounded: past the limit it is counted, not kept. Touched
/// only on libmicrohttpd's thread, hence unchecked.
final class PendingBody: @unchecked Sendable {
  let device: Int
  private(set) var bytes: [UInt8] = []
  private(set) var isTooLarge = false
  /// The command's answer being made on a thread of its own, once started.
  var load: PanelCommandLoad?

  init(device: Int) { self.device = device }

  func append(_ data: UnsafePointer<CChar>?, count: Int) {
    guard !isTooLarge, let data else { return }
    guard bytes.count + count <= PanelPolicy.maximumBodyBytes else {
      isTooLarge = true
      bytes = []
      return
    }
    data.withMemoryRebound(to: UInt8.self, capacity: count) {
      bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
    }
  }
}

/// How many headers named `name` (lowercase) the library's iterator met.
private final class HeaderCounter {
  let name: String
  var count = 0
  init(name: String) { self.name = name }
}

/// The query's pairs, gathered by the library's iterator.
private final class QueryCollector {
  var pairs: [(name: String, value: String)] = []
}

private func monotonicNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

// MARK: Callbacks of libmicrohttpd (C functions: the server comes through their context)

private let panelAccessHandler: MHD_AccessHandlerCallback = {
  context, connection, url, method, _, upload, uploadSize, requestContext in
  guard let context, let url, let method else { return MHD_Result.NO }
  let server = Unmanaged<PanelServer>.fromOpaque(context).takeUnretainedValue()
  return server.handle(
    connection, path: String(cString: url), method: String(cString: method), upload: upload,
    uploadSize: uploadSize, context: requestContext) ? MHD_Result.YES : MHD_Result.NO
}

private let panelRequestCompleted: MHD_RequestCompletedCallback = {
  context, _, requestContext, _ in
  guard let pending = requestContext?.pointee else { return }
  requestContext?.pointee = nil
  let body = Unmanaged<PendingBody>.fromOpaque(pending).takeRetainedValue()
  if let context, let load = body.load {
    Unmanaged<PanelServer>.fromOpaque(context).takeUnretainedValue().forget(load)
  }
}

private let panelConnectionNotified: MHD_NotifyConnectionCallback = {
  context, connection, _, code in
  guard let context, let connection else { return }
  Unmanaged<PanelServer>.fromOpaque(context).takeUnretainedValue().connection(
    connection, opened: code.rawValue == 0)  // MHD_CONNECTION_NOTIFY_STARTED
}

private let panelStreamRead: MHD_ContentReaderCallback = { context, _, buffer, capacity in
  guard let context else { return -2 }
  let stream = Unmanaged<PanelEventStream>.fromOpaque(context).takeUnretainedValue()
  return stream.read(into: buffer, capacity: capacity)
}

private let panelStreamFree: MHD_ContentReaderFreeCallback = { context in
  guard let context else { return }
  let stream = Unmanaged<PanelEventStream>.fromOpaque(context).takeRetainedValue()
  stream.closed()
}
