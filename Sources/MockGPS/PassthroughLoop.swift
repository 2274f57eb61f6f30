import Glibc
import Passthrough
import Replay
import Simulation
import Synchronization
import SystemIO
import Udev

/// The receiver side of `--passthrough`, on a thread of its own: it reads the real receiver,
/// rewrites what it sends per the override and writes it to the device; it follows a change of
/// baud asked by a client; it notices the receiver going away and opens it again when it
/// comes back. Client bytes reach the receiver through `clientSent`, on the device's I/O thread.
///
/// What it forwards is grouped into epochs (`StreamEpochGrouper`) for the epoch listeners (TCP,
/// UDP, `subscribe`, the panel) while any is registered: an epoch is handed over when the next
/// one starts or when the receiver has been quiet for `quietNanoseconds`.
///
/// Nothing waits on a client: bytes a client cannot take now (no client, a full queue) are
/// dropped and counted, as a UART drops what nobody reads, so a flooding receiver never grows
/// memory and never blocks anything.
final class PassthroughLoop: Sendable {
  /// How often the port is opened again while the receiver is away.
  static let retryNanoseconds: Int64 = 200_000_000
  /// How often the client's line speed is looked at, and the longest wait.
  static let lineCheckMilliseconds: Int32 = 100
  /// How long a connection may give no GNSS data before a warning.
  static let silenceNanoseconds: Int64 = 5_000_000_000
  /// Reads in one wake-up before the loop looks at everything else again.
  static let readsPerWake = 16
  /// How long the receiver is quiet before the epoch gathered is handed to the listeners: a
  /// receiver sends an epoch as one burst, and at 10 Hz the gap between bursts is wider.
  static let quietNanoseconds: Int64 = 30_000_000

  /// Called with every epoch forwarded (see above).
  let listeners = EpochListeners()

  let device: SerialDevice
  let receiver: PassthroughReceiver
  /// Set when the loop ends; a passthrough never finishes by itself.
  let finished = FinishLatch()
  /// With a fixed `--passthrough-baud`, that rate; nil finds it.
  private let fixedBaud: Int?
  private let rewriter: Mutex<PassthroughRewriter>
  private let watcher = Mutex(BaudChangeWatcher())
  private let counters = Mutex(PassthroughRunStatistics())
  private let clock: any UTCClock
  private let log: Log
  private let thread: StoppableThread

  /// Creates the loop; `receiver` may be connected already at `baud`.
  init(
    receiver: PassthroughReceiver, baud: Int, fixedBaud: Int?, override: PositionOverride,
    device: SerialDevice, log: Log, clock: any UTCClock
  ) throws(SystemError) {
    thread = try StoppableThread(name: "mockgps-passthrough")
    self.receiver = receiver
    self.fixedBaud = fixedBaud
    self.device = device
    self.log = log
    self.clock = clock
    rewriter = Mutex(PassthroughRewriter(override: override))
    counters.withLock { $0.baud = baud }
  }

  func start() throws(SystemError) {
    try thread.start { [self] in
      SystemThread.raisePriorityIfAllowed()
      run()
      finished.set()
    }
  }

  /// Stops the loop, waits for its thread and closes the port; may be called any number of
  /// times.
  func stop() {
    thread.stop()
    receiver.disconnect()
  }

  /// A copy of the counters.
  var statistics: PassthroughRunStatistics {
    let rewritten = rewriter.withLock { $0.statistics }
    return counters.withLock { counters in
      var copy = counters
      copy.rewriter = rewritten
      return copy
    }
  }

  /// Replaces the override from the next bytes on.
  func setOverride(_ override: PositionOverride) {
    rewriter.withLock { $0.override = override }
  }

  /// Forwards what a client wrote to the receiver, on the device's thread: waits while the
  /// receiver's line is full (the client is held back, as by a real port), and drops the bytes
  /// (counted) only while no receiver is plugged in.
  func clientSent(_ bytes: ArraySlice<UInt8>) {
    watcher.withLock { $0.clientSent(bytes) }
    let written = receiver.writeWaiting(bytes)
    counters.withLock {
      $0.clientBytesForwarded += written
      $0.clientBytesDropped += bytes.count - written
    }
  }

  private var baud: Int { counters.withLock { $0.baud } }

  // MARK: - The loop

  /// The loop's own state.
  private struct State {
    var connection: PassthroughConnection?
    /// When the receiver went away (monotonic), while it is away.
    var lostNanoseconds: Int64?
    var nextRetryNanoseconds: Int64 = 0
    /// The client line's speed last seen; a change is followed on the real port.
    var lineBaud: Int?
    var nextLineCheckNanoseconds: Int64 = 0
    var warnedOfUnrewritten = false
    /// A foreign terminal at the receiver's path was reported; again once the receiver is back.
    var warnedOfForeignTerminal = false
    /// The epochs of what was forwarded, for the listeners, and when the last bytes came.
    var epochs = StreamEpochGrouper()
    var lastForwardedNanoseconds: Int64 = 0
  }

  private func run() {
    let monitor = makeMonitor()
    // The line starts at the receiver's baud: a client may change it before the first look.
    var state = State(lineBaud: baud)
    if receiver.isConnected {
      state.connection = PassthroughConnection(
        now: SystemClock.monotonicNanoseconds(), candidateIndex: candidateIndex(of: baud))
    } else {
      state.lostNanoseconds = SystemClock.monotonicNanoseconds()
    }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while thread.shouldRun {
      if state.connection == nil { reconnectIfDue(&state) }
      var requests = [Poll.Request]()
      if state.connection != nil, let request = receiver.pollRequest { requests.append(request) }
      let receiverIndex = requests.isEmpty ? nil : 0
      var monitorIndex: Int?
      if let monitor, monitor.descriptor >= 0 {
        monitorIndex = requests.count
        requests.append(Poll.Request(rawDescriptor: monitor.descriptor, events: .readable))
      }
      let timeout =
        state.epochs.isGathering
        ? Int32(Self.quietNanoseconds / 1_000_000) : Self.lineCheckMilliseconds
      if let ready = thread.wait(for: requests, timeoutMilliseconds: timeout) {
        if let receiverIndex, !ready[receiverIndex].isEmpty {
          readReceiver(into: &buffer, &state, events: ready[receiverIndex])
        }
        if let monitor, let monitorIndex, !ready[monitorIndex].isEmpty {
          handle(monitor.receive(), &state)
        }
      }
      checkTrialAndSilence(&state)
      followClientLineSpeed(&state)
      if state.epochs.isGathering,
        SystemClock.monotonicNanoseconds() - state.lastForwardedNanoseconds
          >= Self.quietNanoseconds
      {
        publishGathered(&state)
      }
    }
  }

  /// Hands the epochs `bytes` close to the listeners, while any is registered.
  private func publish(forwarded bytes: [UInt8], _ state: inout State) {
    guard !listeners.isEmpty else { return }
    state.lastForwardedNanoseconds = SystemClock.monotonicNanoseconds()
    for packets in state.epochs.add(bytes) { publish(packets) }
  }

  /// Hands the epoch being gathered to the listeners.
  private func publishGathered(_ state: inout State) {
    if let packets = state.epochs.flush() { publish(packets) }
  }

  private func publish(_ packets: [[UInt8]]) {
    listeners.notify(DueEpoch(time: clock.now(), packets: packets, fix: nil))
  }

  private func makeMonitor() -> UdevMonitor? {
    do {
      return try UdevMonitor()
    } catch {
      log.debug("no udev monitor (\(error)); the receiver's return is seen by its path alone")
      return nil
    }
  }

  private func candidateIndex(of baud: Int) -> Int? {
    guard fixedBaud == nil else { return nil }
    return GNSSDataDetector.candidateBauds.firstIndex(of: baud) ?? 0
  }

  private func readReceiver(into buffer: inout [UInt8], _ state: inout State, events: Poll.Events) {
    for _ in 0..<Self.readsPerWake {
      switch receiver.read(into: &buffer) {
      case .bytes(let count):
        forward(buffer[..<count], &state)
        if state.connection == nil { return }
      case .nothing:
        if !events.intersection([.hangUp, .error]).isEmpty { lose(&state) }
        return
      case .lost:
        lose(&state)
        return
      }
    }
  }

  private func forward(_ chunk: ArraySlice<UInt8>, _ state: inout State) {
    if state.connection?.noteReceived(chunk) == true, fixedBaud == nil {
      log.info("receiver '\(receiver.path)' sends GNSS data at \(baud) baud")
      device.setBaud(baud)
    }
    guard state.connection?.isFindingBaud != true else {
      counters.withLock { $0.bytesBeforeData += chunk.count }
      return
    }
    let now = clock.now()
    let (output, unrewritten, overriding) = rewriter.withLock {
      ($0.forward(chunk, at: now), $0.statistics.unrewrittenPositionFrames, $0.override.name)
    }
    writeToClient(output)
    publish(forwarded: output, &state)
    if unrewritten > 0, !state.warnedOfUnrewritten, overriding != "off" {
      state.warnedOfUnrewritten = true
      log.info(
        "receiver '\(receiver.path)' sends positions in a binary protocol mockgps does not "
          + "rewrite (SiRF, TSIP…): they pass unrewritten")
    }
    if let newBaud = watcher.withLock({ $0.receiverSent(chunk) }) {
      switchBaud(to: newBaud, because: "the receiver acknowledged a client's command")
    }
  }

  /// Writes what the client's queue takes now; the rest is dropped and counted.
  private func writeToClient(_ bytes: [UInt8]) {
    var remaining = bytes[...]
    while !remaining.isEmpty {
      switch device.writeSome(remaining) {
      case .wrote(let count):
        remaining = remaining.dropFirst(count)
      case .full:
        counters.withLock { $0.bytesOverrun += remaining.count }
        return
      case .noClient:
        counters.withLock { $0.bytesWithoutClient += remaining.count }
        return
      }
    }
  }

  private func lose(_ state: inout State) {
    receiver.disconnect()
    rewriter.withLock { $0.receiverLost() }
    publishGathered(&state)
    state.epochs = StreamEpochGrouper()
    let now = SystemClock.monotonicNanoseconds()
    state.connection = nil
    state.lostNanoseconds = now
    state.nextRetryNanoseconds = now
    counters.withLock { $0.receiverLosses += 1 }
    log.info("receiver '\(receiver.path)' went away; the link stays up")
  }

  private func reconnectIfDue(_ state: inout State) {
    let now = SystemClock.monotonicNanoseconds()
    guard now >= state.nextRetryNanoseconds else { return }
    state.nextRetryNanoseconds = now + Self.retryNanoseconds
    let baud = self.baud
    do {
      try receiver.connect(baud: baud)
    } catch {
      if case .foreignTerminal = error, !state.warnedOfForeignTerminal {
        state.warnedOfForeignTerminal = true
        log.warning("\(error)")
      }
      return
    }
    state.warnedOfForeignTerminal = false
    state.connection = PassthroughConnection(now: now, candidateIndex: candidateIndex(of: baud))
    counters.withLock { $0.reconnections += 1 }
    let away = now - (state.lostNanoseconds ?? now)
    state.lostNanoseconds = nil
    log.info("receiver '\(receiver.path)' is back (after \(Self.seconds(away)) s)")
  }

  private func handle(_ events: [UdevMonitor.Event], _ state: inout State) {
    let path = receiver.path
    for event in events {
      switch event.action {
      case .remove where state.connection != nil && Self.sameNode(event.deviceNode, path):
        lose(&state)
      case .add:
        state.nextRetryNanoseconds = 0
      default:
        continue
      }
    }
  }

  /// True when `node` is `path` or what `path` links to.
  private static func sameNode(_ node: String?, _ path: String) -> Bool {
    guard let node else { return false }
    if node == path { return true }
    guard let resolved = realpath(path, nil) else { return false }
    defer { free(resolved) }
    return String(cString: resolved) == node
  }

  private func checkTrialAndSilence(_ state: inout State) {
    let now = SystemClock.monotonicNanoseconds()
    guard state.connection != nil else { return }
    if state.connection?.shouldWarnOfSilence(now: now, silenceNanoseconds: Self.silenceNanoseconds)
      == true
    {
      log.warning(
        "no GNSS data from '\(receiver.path)' in 5 s at \(baud) baud; still listening")
    }
    if let next = state.connection?.nextCandidateBaud(now: now) {
      setRealBaud(next, discardingInput: true)
    }
  }

  /// Follows the speed a client set on the device's line, as a program sets a serial port's;
  /// looks every `lineCheckMilliseconds`.
  private func followClientLineSpeed(_ state: inout State) {
    let now = SystemClock.monotonicNanoseconds()
    guard now >= state.nextLineCheckNanoseconds else { return }
    state.nextLineCheckNanoseconds = now + Int64(Self.lineCheckMilliseconds) * 1_000_000
    guard let lineBaud = (try? device.lineSettings())??.baud else { return }
    defer { state.lineBaud = lineBaud }
    guard device.hasClients, state.connection != nil, let before = state.lineBaud,
      before != lineBaud, lineBaud != baud
    else { return }
    switchBaud(to: lineBaud, because: "a client set the line to it")
  }

  private func switchBaud(to newBaud: Int, because reason: String) {
    guard newBaud != baud else { return }
    setRealBaud(newBaud)
    device.setBaud(newBaud)
    counters.withLock { $0.baudChanges += 1 }
    log.info("receiver '\(receiver.path)' switched to \(newBaud) baud: \(reason)")
  }

  private func setRealBaud(_ newBaud: Int, discardingInput: Bool = false) {
    if !receiver.setBaud(newBaud, discardingInput: discardingInput) {
      log.debug("cannot set '\(receiver.path)' to \(newBaud) baud")
    }
    counters.withLock { $0.baud = newBaud }
  }

  /// `1.3`: nanoseconds as seconds with one decimal.
  static func seconds(_ nanoseconds: Int64) -> String {
    let tenths = (max(nanoseconds, 0) + 50_000_000) / 100_000_000
    return "\(tenths / 10).\(tenths % 10)"
  }
}
