import NMEA
import Receiver
import Synchronization
import SystemIO

/// The emulated serial port: a pseudo-terminal whose clients come and go.
///
/// Whether any client has the device open is read from the terminal itself (its master reports
/// a hang-up while none has), never counted from open and close events, which the kernel merges.
/// One I/O thread waits for clients to arrive (inotify on the slave node), reads what they
/// write, and notices the last one leave. Data goes out only while a client has the device
/// open; a client that arrives gets a current epoch, not what was left unread, and when the
/// last client leaves the line settings go back to raw mode at the receiver's baud.
public final class SerialDevice: ByteSink {
  /// The unread bytes the slave may hold before an epoch is dropped whole: the line
  /// discipline's 4 KiB buffer, so writes never block and never split an epoch.
  public static let unreadCapacity = 4095
  /// While no client is there, the I/O thread also looks at the terminal this often, in case
  /// an open was reported before the terminal counted it.
  static let idleRecheckMilliseconds: Int32 = 1000

  /// The slave's path, `/dev/pts/N`.
  public let slavePath: String
  /// Every operation on the terminal holds this lock, so that the short-lived slave descriptors
  /// some of them open are never taken for a client. Empty once closed.
  private let terminal: Mutex<PseudoTerminal?>
  private let watcher: Mutex<DeviceNodeWatcher?>
  private let masterDescriptor: Int32
  private let watcherDescriptor: Int32
  private let thread: StoppableThread
  private let baud: Atomic<Int>
  private let log: Log
  private let connected = Atomic<Bool>(false)
  private let input = Mutex(ClientInput())
  private let handler: Mutex<any ReceiverCommandHandler>
  private let statistics = Mutex(DeviceStatistics())
  private let effects: @Sendable ([ReceiverEffect]) -> Void

  /// Opens a pseudo-terminal at `baud` and starts watching it. `effects` receives what the
  /// handler asks for (replies, a new rate…), for the emulator to apply.
  public init(
    baud: Int, log: Log, handler: any ReceiverCommandHandler,
    effects: @escaping @Sendable ([ReceiverEffect]) -> Void = { _ in }
  ) throws(SystemError) {
    let terminal = try PseudoTerminal.open(baud: baud)
    let watcher = try DeviceNodeWatcher(path: terminal.slavePath)
    thread = try StoppableThread(name: "mockgps-device")
    slavePath = terminal.slavePath
    masterDescriptor = terminal.master.rawValue
    watcherDescriptor = watcher.descriptor.rawValue
    self.terminal = Mutex(terminal)
    self.watcher = Mutex(watcher)
    self.baud = Atomic(baud)
    self.log = log
    self.handler = Mutex(handler)
    self.effects = effects
  }

  /// Starts the I/O thread.
  public func start() throws(SystemError) {
    try thread.start { [self] in runIO() }
  }

  /// True while at least one client has the device open.
  public var hasClients: Bool { connected.load(ordering: .acquiring) }

  /// A copy of the counters.
  public var currentStatistics: DeviceStatistics { statistics.withLock { $0 } }

  /// Updates the counters.
  func count(_ update: (inout DeviceStatistics) -> Void) {
    statistics.withLock { update(&$0) }
  }

  /// The baud the line settings go back to when the last client leaves.
  public func setBaud(_ newBaud: Int) {
    baud.store(newBaud, ordering: .releasing)
  }

  public func admit(byteCount: Int) -> SinkAdmission {
    guard hasClients else { return .noReader }
    let unread = terminal.withLock { $0?.unreadByteCount() } ?? 0
    return unread + byteCount > Self.unreadCapacity ? .overrun : .accepted
  }

  /// Notes the lines of an epoch being sent (without CR LF), so that their echo is recognised.
  public func willSend(lines: [String]) {
    input.withLock { $0.didSend(lines: lines) }
  }

  public func write(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard hasClients else { return false }
    var remaining = bytes
    while !remaining.isEmpty {
      let result = terminal.withLock { terminal in
        (try? terminal?.master.write(remaining)) ?? .wouldBlock
      }
      guard case .transferred(let written) = result, written > 0 else { return false }
      count { $0.bytesSent += written }
      remaining = remaining.dropFirst(written)
    }
    return true
  }

  /// The slave's current line settings, as the client left them.
  public func lineSettings() throws(SystemError) -> TerminalAttributes? {
    try terminal.withLock { (terminal) throws(SystemError) in try terminal?.lineSettings() }
  }

  /// Gives the slave the group and mode of a serial port.
  public func setPermissions(groupID: UInt32?, mode: UInt32) throws(SystemError) {
    try terminal.withLock { (terminal) throws(SystemError) in
      try terminal?.setPermissions(groupID: groupID, mode: mode)
    }
  }

  /// Stops the I/O thread and waits for it; may be called any number of times.
  public func stop() {
    thread.stop()
  }

  /// Stops the I/O thread and closes the pseudo-terminal; may be called any number of times.
  /// Remove the device link first: the kernel hands the terminal's number to the next process.
  public func close() {
    thread.stop()
    connected.store(false, ordering: .releasing)
    // Taking the owned values out and dropping them closes their descriptors, exactly once.
    _ = terminal.withLock { $0.take() }
    _ = watcher.withLock { $0.take() }
  }

  private func runIO() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while thread.shouldRun {
      let isConnected = hasClients
      let request =
        isConnected
        ? Poll.Request(rawDescriptor: masterDescriptor, events: .readable)
        : Poll.Request(rawDescriptor: watcherDescriptor, events: .readable)
      guard
        let ready = thread.wait(
          for: [request], timeoutMilliseconds: isConnected ? -1 : Self.idleRecheckMilliseconds),
        let events = ready.first
      else { continue }
      count { $0.ioWakeups += 1 }
      if isConnected {
        if events.contains(.readable) { readClientBytes(into: &buffer) }
        if events.contains(.hangUp) || events.contains(.error) { lastClientLeft() }
      } else {
        _ = watcher.withLock { $0?.readEvents() }
        if terminal.withLock({ $0?.hasClients }) == true { clientArrived() }
      }
    }
  }

  private func clientArrived() {
    // What was written while nobody read is stale: the client starts with the next epoch.
    terminal.withLock { $0?.discardUnread() }
    connected.store(true, ordering: .releasing)
    count { $0.connections += 1 }
    log.debug("a client opened \(slavePath)")
  }

  private func lastClientLeft() {
    connected.store(false, ordering: .releasing)
    log.debug("the last client closed \(slavePath)")
    let settingsReset: Bool = terminal.withLock { terminal in
      terminal?.discardUnread()
      // A client that opened since keeps the settings it found or set: only an unopened line
      // goes back to raw mode.
      guard terminal?.hasClients == false else { return terminal?.hasClients == nil }
      do {
        try terminal?.resetLineSettings(baud: baud.load(ordering: .acquiring))
      } catch {
        log.warning("could not reset the line settings: \(error)")
      }
      return true
    }
    if !settingsReset { clientArrived() }
  }

  private func readClientBytes(into buffer: inout [UInt8]) {
    while true {
      let result = terminal.withLock { terminal in
        (try? terminal?.master.read(into: &buffer)) ?? .wouldBlock
      }
      guard case .transferred(let byteCount) = result, byteCount > 0 else { return }
      let (messages, echoes) = input.withLock { input in
        let before = input.echoedSentenceCount
        let messages = input.receive(buffer.prefix(byteCount))
        return (messages, input.echoedSentenceCount - before)
      }
      count {
        $0.commandsReceived += messages.count
        $0.echoesIgnored += echoes
      }
      for message in messages {
        let requested = handler.withLock { $0.handle(message) }
        if !requested.isEmpty { effects(requested) }
      }
    }
  }
}
