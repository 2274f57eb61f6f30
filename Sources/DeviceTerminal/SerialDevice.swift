import DeviceRuntime
import Glibc
import NMEA
import Receiver
import Synchronization
import SystemIO

/// The emulated serial port: a pseudo-terminal whose clients come and go.
///
/// Whether any client has the device open is read from the terminal itself (its master reports
/// a hang-up while none has), never counted from open and close events, which the kernel merges.
/// An `IOLoop` (one thread, shared by every device of a process) waits for clients to arrive
/// (inotify on the slave node), reads what they write, and notices the last one leave. Data goes out only while a client has the device
/// open; a client that arrives gets a current epoch, not what was left unread, and when the
/// last client leaves the line settings go back to raw mode at the receiver's baud.
public final class SerialDevice: ByteSink {
  /// The unread bytes the slave may hold before an epoch is dropped whole: the line
  /// discipline's 4 KiB buffer, so writes never block and never split an epoch. An epoch
  /// longer than that needs an empty queue (`admission(of:unread:)`), and its writes wait for
  /// the client to read.
  public static let unreadCapacity = 4095

  /// Whether `byteCount` bytes fit behind `unread` unread ones in a queue with `room`: all of
  /// them, or, for more than a whole queue holds (`unreadCapacity`), an empty queue.
  static func admission(of byteCount: Int, unread: Int, room: Int = unreadCapacity)
    -> SinkAdmission
  {
    unread + min(byteCount, unreadCapacity) > room ? .overrun : .accepted
  }

  /// While no client is there, the I/O thread also looks at the terminal this often, in case
  /// an open was reported before the terminal counted it.
  static let idleRecheckNanoseconds: Int64 = 1_000_000_000

  /// The slave's path, `/dev/pts/N`.
  public let slavePath: String
  /// The terminal, and what the chip's writes leave for the I/O thread to look at, under one
  /// lock: every operation on the terminal holds it, so that the short-lived slave descriptors
  /// some of them open are never taken for a client.
  let line: Mutex<LineState>
  private let masterDescriptor: Int32
  /// The inotify instance that reports opens and closes of the slave node: the runtime's,
  /// shared by every device of a process, or the device's own.
  private let nodeWatchers: DeviceNodeWatcherHub
  /// True when `nodeWatchers` was made for this device alone: closed when it stops.
  private let ownsNodeWatchers: Bool
  /// The slave node's watch in `nodeWatchers`; nil for a line in memory.
  private let nodeWatch: DeviceNodeWatcherHub.WatchID?
  /// The thread that serves the watcher and the master (and the emulator's network outputs).
  package let io: IOLoop
  /// True when `io` was made for this device alone: started and stopped with it.
  private let ownsIO: Bool
  /// What the I/O thread's handlers own: the terminal's registrations and what the chip makes
  /// of the clients' input (a memory line's input is handled under `io.exclusively`).
  private let clientSide: LoopOwned<ClientSide>
  /// The line's speeds, which commands set and both directions read.
  let speeds: Mutex<LineSpeeds>
  private let log: Log
  let connected = Atomic<Bool>(false)
  private let statistics = Mutex(DeviceStatistics())
  /// Receives what the handler asks for, with when the command's last byte arrived.
  private let effects: @Sendable ([ReceiverEffect], Int64) -> Void
  /// The clock commands are timed on: the runtime's (a test's manual clock).
  private let monotonicNanoseconds: @Sendable () -> Int64
  /// Simulated seconds per wire second: the line from the client runs this much faster, as
  /// the chip's output does.
  private let timeScale: Double
  /// Until when (monotonic nanoseconds) the chip does not listen: it boots after a restart.
  private let deafUntil = Atomic<Int64>(.min)
  private let firstClientArrived: @Sendable () -> Void
  /// False for a replay: a client that opens while another reads takes nothing from it.
  private let discardsUnreadWhenClientsJoin: Bool
  /// Sees every byte clients write, raw and in order, before the handler does (a passthrough
  /// forwards them to the real receiver).
  private let clientBytesTap: (@Sendable (ArraySlice<UInt8>) -> Void)?
  /// Whether what clients write is read at the chip's line pace (`ClientInputPace`): not for a
  /// passthrough, whose real receiver's line holds it back (`holdClientInput`; pacing it at
  /// the device's speed as well would slow it twice), nor when the owner says so (a replay
  /// whose output is unpaced, `--baud 0`, reads its clients unpaced as well).
  private let pacesClientInput: Bool
  /// True while clients' input is held back (`holdClientInput`): the master is not read, so
  /// the clients' writes block once the terminal's queue is full, as on a port whose other
  /// end does not take more.
  let inputHeld = Atomic<Bool>(false)
  /// True when a client at the wrong speed reads (and writes) garbage as through a UART.
  private let garblesMismatchedSpeeds: Bool
  /// The line in memory that stands for the pseudo-terminal (a test's), or nil for a real one.
  public let memoryLine: MemoryLine?

  /// Opens a pseudo-terminal at `baud` and starts watching it. `effects` receives what the
  /// handler asks for (replies, a new rate…), for the emulator to apply, with the monotonic
  /// time (`monotonicNanoseconds`'s) at which the command's last byte arrived through a line
  /// at the chip's speed (see `ClientLineArrival`; `timeScale` compresses it);
  /// `firstClientArrived` is called when a client opens the device that no client had open.
  ///
  /// A live receiver's device discards what the clients left unread when another client opens
  /// (it starts with the next epoch); with `discardsUnreadWhenClientsJoin` false (a replay,
  /// which never loses bytes a client may still read), what was written stays.
  ///
  /// `clientBytesTap`, when given, receives every byte clients write, raw and in order, on the
  /// I/O thread, before the handler sees them; it must not block.
  ///
  /// With `garblesMismatchedSpeeds`, the bytes `transmit` sends reach a client whose terminal
  /// is at another speed than the chip's as a UART at that speed would read them (see
  /// `UARTLink`), and what it writes reaches the handler garbled the same way.
  ///
  /// `io` is the thread that serves the device (an `EmulatorRuntime`'s, shared by every device
  /// of a process); without one, the device makes its own. `nodeWatchers` is the inotify
  /// instance that watches the slave node, on `io` (the runtime's, shared likewise); without
  /// one, the device makes its own.
  ///
  /// With `pacesClientInput` false, what clients write is read as fast as they write it (an
  /// unpaced line's device is not paced either way).
  ///
  /// With `inMemory`, no pseudo-terminal is opened: what is written stays in a `MemoryLine`
  /// (`memoryLine`) for a test to read, and its client comes, goes and writes when the test
  /// says; nothing of it is served by `io`.
  public init(
    baud: Int, log: Log, handler: any ReceiverCommandHandler,
    effects: @escaping @Sendable ([ReceiverEffect], Int64) -> Void = { _, _ in },
    firstClientArrived: @escaping @Sendable () -> Void = {},
    discardsUnreadWhenClientsJoin: Bool = true,
    clientBytesTap: (@Sendable (ArraySlice<UInt8>) -> Void)? = nil,
    garblesMismatchedSpeeds: Bool = false, io: IOLoop? = nil,
    nodeWatchers: DeviceNodeWatcherHub? = nil,
    monotonicNanoseconds: @escaping @Sendable () -> Int64 = SystemClock.monotonicNanoseconds,
    timeScale: Double = 1, pacesClientInput: Bool = true, inMemory: Bool = false
  ) throws(SystemError) {
    memoryLine = inMemory ? MemoryLine(settings: Self.memoryLineSettings(baud: baud)) : nil
    if let io {
      (self.io, ownsIO) = (io, false)
    } else {
      (self.io, ownsIO) = (try IOLoop(name: "mockgps-device"), true)
    }
    if let nodeWatchers, nodeWatchers.io === self.io {
      (self.nodeWatchers, ownsNodeWatchers) = (nodeWatchers, false)
    } else {
      (self.nodeWatchers, ownsNodeWatchers) = (try DeviceNodeWatcherHub(io: self.io), true)
    }
    let uart = UARTLink(chipBaud: baud)
    if let memoryLine {
      (nodeWatch, slavePath, masterDescriptor) = (nil, memoryLine.path, -1)
      speeds = Mutex(LineSpeeds(raw: memoryLine.clientSettings, uart: uart))
      line = Mutex(LineState(terminal: nil))
    } else {
      let terminal = try PseudoTerminal.open(baud: baud)
      let watcher = try self.nodeWatchers.watch(path: terminal.slavePath)
      nodeWatch = watcher.id
      slavePath = terminal.slavePath
      masterDescriptor = terminal.master.rawValue
      speeds = Mutex(LineSpeeds(raw: try terminal.lineSettings(), uart: uart))
      line = Mutex(LineState(terminal: DeviceLine(terminal: terminal, watcher: watcher)))
    }
    self.log = log
    clientSide = LoopOwned(ClientSide(reception: ClientReception(handler: handler)), on: self.io)
    self.effects = effects
    self.firstClientArrived = firstClientArrived
    self.discardsUnreadWhenClientsJoin = discardsUnreadWhenClientsJoin
    self.clientBytesTap = clientBytesTap
    self.pacesClientInput = pacesClientInput && clientBytesTap == nil
    self.garblesMismatchedSpeeds = garblesMismatchedSpeeds
    self.monotonicNanoseconds = monotonicNanoseconds
    self.timeScale = timeScale
  }

  /// The chip does not listen until `untilNanoseconds` (monotonic, `monotonicNanoseconds`'s):
  /// it boots after a restart, and commands whose first byte starts before then are lost, as
  /// on hardware, where the UART is not up to catch it (counted in `commandsLostWhileBooting`).
  public func stopListening(untilNanoseconds: Int64) {
    deafUntil.store(untilNanoseconds, ordering: .releasing)
  }

  /// Registers the terminal with the I/O thread (and starts the device's own one); does
  /// nothing after `stop()`. Waits for the I/O thread's round in progress: not while holding a
  /// lock its handlers take (see `IOLoop.exclusively`).
  public func start() throws(SystemError) {
    if ownsIO {
      try io.start()
      // A client that reopens at once races the look that discards what its predecessor left.
      io.perform { SystemThread.raisePriorityIfAllowed() }
    }
    guard memoryLine == nil else { return }
    io.exclusively {
      clientSide.access { side in
        guard !side.registrations.stopped, side.registrations.idleRecheck == nil,
          let nodeWatch
        else { return }
        nodeWatchers.setHandler(of: nodeWatch) { [self] in serviceLine(masterEvents: nil) }
        // While nobody has the line, look now and then too, in case an open was reported
        // before the terminal counted it: armed again by each look that finds no client (or
        // that the retries left unsettled), so that a device in use has no timer waking its
        // I/O thread.
        side.registrations.idleRecheck = io.addOneShotTimer { [self] in
          serviceLine(masterEvents: nil)
        }
        // Reads on when the line has carried enough of what clients wrote (`serviceInput`).
        side.registrations.inputResume = io.addOneShotTimer { [self] in
          count { $0.ioWakeups += 1 }
          serviceInput()
        }
      }
    }
    // A client may have opened before the watch was served.
    io.perform { [self] in serviceLine(masterEvents: nil) }
  }

  /// True while at least one client has the device open.
  public var hasClients: Bool { connected.load(ordering: .acquiring) }

  /// True when a client opened or closed the device since the I/O thread last looked: the
  /// look may yet discard what is unread for a client that joins others (see
  /// `discardsUnreadWhenClientsJoin`), and an epoch written before it would lose its first
  /// bytes to it (a driver that reopens the port just before an epoch, while a loaded machine
  /// keeps the I/O thread from its look). Reads the node's events at most once a millisecond
  /// for every device of the runtime together: a change less than that old may go unseen.
  public func hasUnseenClientChange() -> Bool {
    guard memoryLine == nil, discardsUnreadWhenClientsJoin, let nodeWatch else { return false }
    return nodeWatchers.hasUnreadEvents(of: nodeWatch, freshNanoseconds: 1_000_000)
  }

  /// Has the I/O thread look at the line now (what `hasUnseenClientChange` saw), then calls
  /// `done` there.
  public func lookAtClients(then done: @escaping @Sendable () -> Void) {
    io.perform { [self] in
      serviceLine(masterEvents: nil)
      done()
    }
  }

  /// True when the terminal shows a client, whether or not the I/O thread has seen it open
  /// yet: one `poll` on the master, for the epoch loop while the device has none.
  public func terminalShowsClient() -> Bool {
    if memoryLine != nil { return hasClients }
    return line.withLock { line in
      line.terminal?.hasClients == true || line.terminal?.terminal.hasClients == true
    }
  }

  /// A copy of the counters.
  public var currentStatistics: DeviceStatistics { statistics.withLock { $0 } }

  /// Updates the counters.
  package func count(_ update: (inout DeviceStatistics) -> Void) {
    statistics.withLock { update(&$0) }
  }

  /// Holds back (true) or reads again (false) what clients write: a passthrough holds them
  /// while the real receiver's line is full. May be called from any thread, holding any lock:
  /// it waits for nothing. A read in progress stops after the chunk it has; the master is
  /// watched for what the last call says once the I/O thread's round ends.
  public func holdClientInput(_ held: Bool) {
    inputHeld.store(held, ordering: .releasing)
    if memoryLine != nil {
      if !held { io.perform { [self] in deliverHeldMemoryInput() } }
      return
    }
    io.perform { [self] in
      clientSide.access { side in
        guard let master = side.registrations.master else { return }
        io.change(master, events: inputEvents(paused: side.inputPaused))
      }
    }
  }

  /// The baud the line settings go back to when the last client leaves.
  public func setBaud(_ newBaud: Int) {
    speeds.withLock { speeds in
      speeds.raw.setSpeed(baud: newBaud == 0 ? 115_200 : newBaud)
      speeds.uart.setChipBaud(newBaud)
    }
  }

  /// Reads the speed the client's terminal is at (one `tcgetattr` on the master), any Linux
  /// speed (0 for `B0`), for `transmit` and the client's input; does nothing unless the device
  /// garbles mismatched speeds. `transmit` calls it before each write and the input before
  /// each read, so that a change in the middle of an epoch applies from the next write on.
  private func readClientSpeed() {
    guard garblesMismatchedSpeeds else { return }
    let baud = (try? lineSettings())??.lineSpeed
    speeds.withLock { $0.uart.setClientBaud(baud) }
  }

  /// Writes bytes the chip sends as the client's UART receives them at its speed (see
  /// `readClientSpeed`): right after the bytes before (`afterIdle` false, a burst going on)
  /// or after an idle line, the line idle after them when `thenIdle`. Without garbling, the
  /// same as `write`.
  public func transmit(_ bytes: ArraySlice<UInt8>, afterIdle: Bool, thenIdle: Bool) -> Bool {
    guard garblesMismatchedSpeeds else { return write(bytes) }
    readClientSpeed()
    let received = speeds.withLock {
      $0.uart.chipSends(bytes, afterIdle: afterIdle, thenIdle: thenIdle)
    }
    return write(received)
  }

  /// Admits bytes while a client has the device open and has read what came before.
  public func admit(byteCount: Int) -> SinkAdmission {
    if let memoryLine { return memoryLine.admit(byteCount: byteCount, clientOpen: hasClients) }
    guard
      let unread = line.withLock({ line -> Int? in
        guard line.terminal?.hasClients == true, let unread = line.terminal?.unreadByteCount()
        else { return nil }
        line.keep(unread: unread)
        return unread
      })
    else { return .noReader }
    return Self.admission(of: byteCount, unread: unread)
  }

  /// What the clients had left unread at one moment, to admit later writes without asking
  /// the terminal again (see `admit(byteCount:after:)`).
  public struct UnreadReading: Sendable {
    /// The unread bytes the terminal reported.
    package let unread: Int
    fileprivate let bytesWrittenBefore: Int

    /// Whether `byteCount` bytes are admitted on this reading after `writtenTotal` bytes were
    /// written in all (`WriteHistory.total`).
    fileprivate func admits(_ byteCount: Int, writtenTotal: Int) -> Bool {
      SerialDevice.admission(of: byteCount, unread: unread + writtenTotal - bytesWrittenBefore)
        == .accepted
    }
  }

  /// How long after a write a reading of the unread bytes may still miss it: the terminal
  /// counts written bytes once a kernel worker has passed them on (see `WriteHistory`), and
  /// the bytes written within this span before a reading count as unseen, on top of it.
  static let unseenWriteNanoseconds: Int64 = 40_000_000

  /// Reads the bytes the clients have not read yet, to admit `byteCount` bytes later; nil
  /// without a client, or when too many writes came in the last `unseenWriteNanoseconds` to
  /// tell what the reading may miss.
  ///
  /// The terminal is asked only when the last reading no longer admits `byteCount` bytes: only
  /// writes add unread bytes, so an older reading plus what was written since stays a bound
  /// (see `admit(byteCount:after:)`), and a client that keeps up is asked about once every
  /// few epochs instead of at each.
  public func readUnread(toAdmit byteCount: Int = 0) -> UnreadReading? {
    if let memoryLine {
      guard hasClients else { return nil }
      return UnreadReading(
        unread: memoryLine.unreadByteCount, bytesWrittenBefore: line.withLock { $0.writes.total })
    }
    return line.withLock { line in
      guard line.terminal?.hasClients == true else { return nil }
      if let last = line.lastUnreadReading,
        last.admits(byteCount, writtenTotal: line.writes.total)
      {
        return last
      }
      guard let unread = line.terminal?.unreadByteCount() else { return nil }
      return line.keep(unread: unread)
    }
  }

  /// Admits bytes as `admit(byteCount:)` does, but without asking the terminal when an earlier
  /// `reading` shows they fit: only writes add unread bytes (clients read them, a joining
  /// client's flush and `tcflush` discard them), so what was unread then plus what was
  /// written since (and shortly before: what the reading may have missed) bounds what is
  /// unread now. The epoch thread reads ahead of an epoch, so that its deadline only writes.
  public func admit(byteCount: Int, after reading: UnreadReading?) -> SinkAdmission {
    // A memory line is asked at no cost, and its room may be less than the terminal's.
    if memoryLine != nil { return admit(byteCount: byteCount) }
    if let reading, hasClients,
      reading.admits(byteCount, writtenTotal: line.withLock { $0.writes.total })
    {
      return .accepted
    }
    return admit(byteCount: byteCount)
  }

  /// Bytes written that a client has not read yet; 0 without a client.
  public var unreadByteCount: Int {
    if let memoryLine { return hasClients ? memoryLine.unreadByteCount : 0 }
    return line.withLock {
      $0.terminal?.hasClients == true ? $0.terminal?.unreadByteCount() ?? 0 : 0
    }
  }

  /// Notes the packets of an epoch being sent (sentences with their line ending, UBX frames),
  /// so that the echo of its sentences is recognised; cheap: they are looked at only when a
  /// client writes.
  public func willSend(packets: [[UInt8]]) {
    let memory = Self.echoMemory
    // Straight into the kept array: an array of the epoch's fingerprints was an allocation an
    // epoch (the hashing under the lock is about 1 µs an epoch).
    let room = memory + Self.unnotedSlack
    line.withLock { line in
      // Only the last `echoMemory` can matter: the older ones go, a batch at a time, before
      // the array outgrows the room it is given once (grown a sentence at a time, it doubled
      // to four times the memory: 2.5 MB more for 1,000 devices).
      if line.unnotedSentences.count + packets.count > room {
        line.unnotedSentences.removeFirst(max(0, line.unnotedSentences.count - memory))
      }
      if line.unnotedSentences.capacity < room { line.unnotedSentences.reserveCapacity(room) }
      for packet in packets {
        if let fingerprint = EchoFingerprint.ofSentence(packet) {
          line.unnotedSentences.append(fingerprint)
        }
      }
    }
  }

  /// How many of the last sentences sent are recognised as echo (`ClientInput`'s memory).
  private static let echoMemory = ClientInput().echoMemory
  /// How many fingerprints beyond `echoMemory` are kept until the oldest go: a few epochs'
  /// worth, so that they go a batch at a time, in 2.5 KB a device.
  private static let unnotedSlack = 64

  /// Hands the sentences sent since the last look to the echo filter.
  private func noteSentPackets() {
    let sentences = line.withLock { line in
      defer { line.unnotedSentences.removeAll(keepingCapacity: true) }
      return line.unnotedSentences
    }
    guard !sentences.isEmpty else { return }
    clientSide.access {
      $0.reception.input.didSend(fingerprints: sentences.suffix(Self.echoMemory))
    }
  }

  public func write(_ bytes: ArraySlice<UInt8>) -> Bool {
    var remaining = bytes
    while !remaining.isEmpty {
      guard case .wrote(let written) = writeSome(remaining) else { return false }
      remaining = remaining.dropFirst(written)
    }
    return true
  }

  /// What one write to the terminal did.
  enum PartialWrite: Hashable, Sendable {
    /// This many bytes (at least one) went to the clients' queue.
    case wrote(Int)
    /// The queue is full: wait for room (`waitForRoom`).
    case full
    /// No client has the device open: nothing was written.
    case noClient
  }

  /// Writes what the terminal's queue takes of `bytes` now, without blocking.
  func writeSome(_ bytes: ArraySlice<UInt8>) -> PartialWrite {
    guard !bytes.isEmpty else { return .wrote(0) }
    if let memoryLine { return writeSome(bytes, to: memoryLine) }
    // Checked under the lock: nothing is written once the last client is seen to leave.
    let result = line.withLock { line -> PartialWrite in
      guard line.terminal?.hasClients == true else { return .noClient }
      guard case .transferred(let written) = (try? line.terminal?.terminal.master.write(bytes)),
        written > 0
      else { return .full }
      line.writes.record(bytes: written, at: SystemClock.monotonicNanoseconds())
      line.noteUnreadBound(afterWriting: written)
      return .wrote(written)
    }
    if case .wrote(let written) = result { count { $0.bytesSent += written } }
    return result
  }

  /// Calls `ready` once, on `scheduler`'s thread, when a write would take bytes again or the
  /// last client left (see `TerminalRoomWait`); nil when the master cannot be duplicated for
  /// the wait.
  func waitForRoom(on scheduler: DeadlineScheduler, _ ready: @escaping @Sendable () -> Void)
    -> (any RoomWaiting)?
  {
    if let memoryLine { return memoryLine.waitForRoom(ready) }
    guard let master = try? FileDescriptor.duplicate(masterDescriptor) else { return nil }
    return TerminalRoomWait(master: master, on: scheduler, ready: ready)
  }

  /// The slave's current line settings, as the client left them.
  public func lineSettings() throws(SystemError) -> TerminalAttributes? {
    if let memoryLine { return memoryLine.clientSettings }
    return try line.withLock { (line) throws(SystemError) in
      try line.terminal?.terminal.lineSettings()
    }
  }

  /// Gives the slave the group and mode of a serial port.
  public func setPermissions(groupID: UInt32?, mode: UInt32) throws(SystemError) {
    try line.withLock { (line) throws(SystemError) in
      try line.terminal?.terminal.setPermissions(groupID: groupID, mode: mode)
    }
  }

  /// Removes the terminal from the I/O thread, waiting out a handler that is running (and
  /// stops the device's own thread); may be called any number of times, but not while
  /// holding a lock the I/O thread's handlers take.
  public func stop() {
    // No event reaches the device once this returns: the registrations go where no handler
    // runs, and none is made again.
    io.exclusively {
      let removed = clientSide.access { side in
        defer { side.registrations = Registrations(stopped: true) }
        return [
          side.registrations.master, side.registrations.idleRecheck,
          side.registrations.inputResume,
        ]
      }
      if let nodeWatch { nodeWatchers.remove(nodeWatch) }
      for case let registration? in removed { io.remove(registration) }
    }
    if ownsNodeWatchers { nodeWatchers.close() }
    if ownsIO { io.stop() }
  }

  /// Stops serving the terminal and closes it; may be called any number of times.
  /// Remove the device link first: the kernel hands the terminal's number to the next process.
  public func close() {
    stop()
    connected.store(false, ordering: .releasing)
    // Taking the owned values out and dropping them closes their descriptors, exactly once.
    _ = line.withLock { $0.terminal.take() }
  }

  /// The terminal (nil for a memory line, and once closed), and what the chip's writes leave
  /// for the I/O thread to look at.
  struct LineState: ~Copyable {
    var terminal: DeviceLine?
    /// The writes to the clients' queue, so that a reading of the unread bytes and the writes
    /// before it are one consistent picture.
    var writes = WriteHistory()
    /// The fingerprints of the sentences sent since clients last wrote, oldest first: they go
    /// to the echo filter only when a client writes (most never do), instead of at every epoch.
    var unnotedSentences: [UInt64] = []
    /// The last reading of the clients' unread bytes (`readUnread(toAdmit:)`).
    var lastUnreadReading: UnreadReading?
    /// True once writes may have queued more than the line discipline counts: the terminal
    /// takes some 20 KiB, but reports at most `unreadCapacity`; the rest waits in the kernel's
    /// buffer, uncounted, and moves into the count as the client reads, with no write. A
    /// reading may then be low (taken right after a read, before the kernel moved the rest),
    /// so none is kept from then on: each epoch asks the terminal, as one over 4 KiB (RAWX)
    /// needs anyway.
    var mayHoldUncountedBytes = false

    /// A reading of `unread` bytes taken now, kept as the last one unless the count may miss
    /// some (`mayHoldUncountedBytes`); nil when too many writes came in the last
    /// `unseenWriteNanoseconds` to tell what it may miss.
    @discardableResult
    mutating func keep(unread: Int) -> UnreadReading? {
      let seenBefore = SystemClock.monotonicNanoseconds() - SerialDevice.unseenWriteNanoseconds
      guard let settled = writes.total(atOrBefore: seenBefore) else { return nil }
      let reading = UnreadReading(unread: unread, bytesWrittenBefore: settled)
      if !mayHoldUncountedBytes { lastUnreadReading = reading }
      return reading
    }

    /// Notes a write of `written` bytes: when the last reading, with what was written since,
    /// no longer bounds the queue within what the terminal counts (or there is none and one
    /// write alone exceeds it), unread bytes may go uncounted.
    mutating func noteUnreadBound(afterWriting written: Int) {
      guard !mayHoldUncountedBytes else { return }
      let withinCount =
        if let last = lastUnreadReading {
          last.admits(0, writtenTotal: writes.total)
        } else {
          written <= SerialDevice.unreadCapacity
        }
      guard !withinCount else { return }
      mayHoldUncountedBytes = true
      lastUnreadReading = nil
    }
  }

  /// The line's speeds, which commands set and both directions read.
  struct LineSpeeds {
    /// What the line goes back to when the last client leaves: raw 8N1 at the receiver's baud.
    var raw: TerminalAttributes
    /// The line between the chip's speed and the client's; used only with
    /// `garblesMismatchedSpeeds`.
    var uart: UARTLink
  }

  /// What the I/O thread's handlers own.
  struct ClientSide {
    /// What the chip makes of the clients' input.
    var reception: ClientReception
    var registrations = Registrations()
    /// How fast the clients' input is taken from the master: the chip's line rate.
    var inputPace = ClientInputPace()
    /// True while the line is ahead of what was taken: the master is not watched for input
    /// until `inputResume` fires.
    var inputPaused = false
  }

  /// The registrations of the terminal on the I/O thread.
  struct Registrations {
    /// Only while clients have the line: without one, the master reports a hang-up for ever.
    var master: IOLoop.Registration?
    var idleRecheck: IOLoop.Registration?
    /// Reads on what clients wrote once the line has carried enough (`ClientInputPace`).
    var inputResume: IOLoop.Registration?
    /// Set by `stop()`: nothing is registered again.
    var stopped = false
  }

  /// Serves the terminal on the I/O thread: reads what clients wrote (`masterEvents` are the
  /// master's, when it woke the thread), then looks whether clients came or went.
  private func serviceLine(masterEvents: Poll.Events?) {
    count { $0.ioWakeups += 1 }
    let isConnected = hasClients
    if isConnected, masterEvents?.contains(.readable) == true { serviceInput() }
    let hungUp = isConnected && masterEvents?.intersection([.hangUp, .error]).isEmpty == false
    let raw = speeds.withLock { $0.raw }
    var (change, lookAgain) = look(always: !isConnected || hungUp, raw: raw)
    report(change)
    // The node reported an open the terminal does not count yet, or a close after the look
    // asked it: look again within this wake-up, a little later, instead of at the idle
    // recheck a second away (a replay that waits for its first client would start a second
    // late) or at the next open or close (a device would say it has clients meanwhile).
    var retries = 0
    while lookAgain, retries < Self.openRetries {
      retries += 1
      usleep(Self.openRetryMicroseconds)
      (change, lookAgain) = look(always: true, raw: raw)
      report(change)
    }
    watchMaster(hasClients)
    // Still unsettled after the retries (clients opening and closing without end): a close
    // read with the keeper's open would otherwise wait for the next open or close, the keeper
    // hiding the hang-up, so the recheck looks again (the flags it left ask for the look).
    if !hasClients || lookAgain { armIdleRecheck() }
  }

  /// Arms the look that a line without clients (or left unsettled) gets
  /// `idleRecheckNanoseconds` after the last.
  private func armIdleRecheck() {
    clientSide.access { side in
      guard !side.registrations.stopped, let recheck = side.registrations.idleRecheck else {
        return
      }
      io.arm(
        recheck,
        atMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + Self.idleRecheckNanoseconds)
    }
  }

  /// How many times one wake-up looks again for an open the node reported and the terminal
  /// did not count yet, or after a close that came after a look asked the terminal,
  /// `openRetryMicroseconds` apart: at most 5 ms of the I/O thread, only after such events.
  static let openRetries = 10
  /// The pause before each of those looks.
  static let openRetryMicroseconds: UInt32 = 500

  /// Looks at the line under its lock (see `DeviceLine.look`) and notes whether clients have
  /// it; returns what changed, and whether to look again at once: an open the node reported is
  /// not counted yet, or a client closed after the look asked the terminal.
  private func look(always: Bool, raw: TerminalAttributes) -> (DeviceLine.Change, Bool) {
    line.withLock { line -> (DeviceLine.Change, Bool) in
      let change =
        line.terminal?.look(
          always: always, raw: raw, discardingForJoiners: discardsUnreadWhenClientsJoin) ?? .none
      connected.store(line.terminal?.hasClients == true, ordering: .releasing)
      let lookAgain =
        line.terminal?.openNotYetCounted == true || line.terminal?.closedSinceAsking == true
      return (change, lookAgain)
    }
  }

  /// Registers the master while clients have the line, and removes it when none has.
  private func watchMaster(_ watching: Bool) {
    clientSide.access { side in
      guard !side.registrations.stopped, watching != (side.registrations.master != nil) else {
        return
      }
      guard watching else {
        if let stale = side.registrations.master.take() { io.remove(stale) }
        return
      }
      // Hang-ups are reported with no events asked: a held client still leaves.
      side.registrations.master = try? io.add(
        descriptor: masterDescriptor, events: inputEvents(paused: side.inputPaused)
      ) {
        [self] events in serviceLine(masterEvents: events)
      }
    }
  }

  func report(_ change: DeviceLine.Change) {
    switch change {
    case .none:
      return
    case .arrived, .joined:
      count { $0.connections += 1 }
      log.debug("a client opened \(slavePath)")
      if change == .arrived { firstClientArrived() }
    case .left:
      log.debug("the last client closed \(slavePath)")
    }
  }

  /// The pacing of the chip's port speed, at which what clients write arrives (unpaced at a
  /// speed outside the standard ones).
  private var chipPacing: BytePacing {
    (try? BytePacing(baud: speeds.withLock { $0.uart.chipBaud })) ?? .unpaced
  }

  /// What one read of the master got: the bytes as the chip received them through the line
  /// at the speeds of that moment, and when the line carried them.
  struct ClientChunk {
    /// The bytes read, garbled as the chip hears them at the speeds of the read.
    let received: ArraySlice<UInt8>
    /// When the line carried them.
    let write: ClientLineArrival.Write
    /// How many bytes the read took from the master (garbling changes the count).
    let readCount: Int
  }

  /// How much client input one wake-up of the I/O thread reads at most: a client that writes
  /// without end to an unpaced line leaves the thread to the other devices in between (the
  /// master stays readable, so the thread comes back); a paced line is read at its pace
  /// (`ClientInputPace`).
  static let clientReadLimit = 65_536
  /// How much one read of the master takes at most.
  static let clientReadSize = 4096

  /// What the master is watched for: input, unless it is held or the line is ahead of it
  /// (hang-ups are reported all the same).
  private func inputEvents(paused: Bool) -> Poll.Events {
    inputHeld.load(ordering: .acquiring) || paused ? [] : .readable
  }

  /// Reads what clients wrote at the line's pace: while a read would leave the line more than
  /// the read ahead (`ClientInputPace.readAheadBytes`) to carry, the master is not watched for
  /// input, and the resume timer reads on when the line has carried enough, whether or not the
  /// client is still there (a port's driver sends what was written before the close). The
  /// clients' writes meanwhile wait in the kernel.
  private func serviceInput() {
    readClientBytes()
    let resume = inputResumeNanoseconds()
    clientSide.access { side in
      if let resume, let timer = side.registrations.inputResume {
        io.arm(timer, atMonotonicNanoseconds: resume)
      }
      guard side.inputPaused != (resume != nil) else { return }
      side.inputPaused = resume != nil
      if let master = side.registrations.master {
        io.change(master, events: inputEvents(paused: side.inputPaused))
      }
    }
  }

  /// When the chip's side may read clients' input again (nil: now), on the machine's clock
  /// (nil always unless `pacesClientInput`).
  private func inputResumeNanoseconds() -> Int64? {
    guard pacesClientInput else { return nil }
    let pacing = chipPacing
    return clientSide.access { side in
      side.inputPace.resumeNanoseconds(
        now: SystemClock.monotonicNanoseconds(), readBytes: Self.clientReadSize, pacing: pacing,
        timeScale: timeScale)
    }
  }

  /// Notes that a read took `byteCount` bytes off the line.
  private func noteInputTaken(_ byteCount: Int) {
    guard pacesClientInput else { return }
    let pacing = chipPacing
    clientSide.access { side in
      side.inputPace.took(
        byteCount, atNanoseconds: SystemClock.monotonicNanoseconds(), pacing: pacing,
        timeScale: timeScale)
    }
  }

  /// Reads what clients wrote and handles it, reading on between commands: what a client
  /// wrote is read (and the client's speed with it) at most one command's handling after the
  /// kernel hands it over, however many commands came before, so that a client that writes
  /// and then changes its speed (`gpsctl -s`: CFG-PRT, CFG-MSGs, 50 ms, 115200 baud) is heard
  /// at the speed it wrote at. The kernel hands a write over in pieces (a worker thread moves
  /// it to the master, 4 KiB at most at a time), and another write may come while the chip
  /// handles: reading only before handling would not see them.
  private func readClientBytes() {
    var buffer = [UInt8](repeating: 0, count: Self.clientReadSize)
    var pending: [ClientChunk] = []
    var readCount = 0
    func readOn() {
      while readCount < Self.clientReadLimit, !inputHeld.load(ordering: .acquiring),
        inputResumeNanoseconds() == nil, let chunk = readClientChunk(into: &buffer)
      {
        pending.append(chunk)
        readCount += chunk.readCount
        noteInputTaken(chunk.readCount)
      }
    }
    readOn()
    var next = 0
    while next < pending.count {
      let chunk = pending[next]
      next += 1
      handle(chunk, readingOn: readOn)
      if next == pending.count { readOn() }
    }
  }

  /// One read of the master, garbled as the chip hears it; nil when nothing is waiting.
  private func readClientChunk(into buffer: inout [UInt8]) -> ClientChunk? {
    let result = line.withLock { line in
      (try? line.terminal?.terminal.master.read(into: &buffer)) ?? .wouldBlock
    }
    guard case .transferred(let byteCount) = result, byteCount > 0 else { return nil }
    // Its own array: a slice of `buffer` kept until handled would keep all 4 KiB of it.
    return clientChunk(Array(buffer.prefix(byteCount))[...])
  }

  /// The chunk of what a client wrote, `bytes` as one read got them, garbled as the chip hears
  /// them.
  func clientChunk(_ bytes: ArraySlice<UInt8>) -> ClientChunk {
    let byteCount = bytes.count
    clientBytesTap?(bytes)
    noteSentPackets()
    readClientSpeed()
    let received =
      garblesMismatchedSpeeds ? speeds.withLock { $0.uart.clientSends(bytes) } : bytes
    let write = clientSide.access { side in
      side.reception.arrival.write(
        byteCount: received.count, readNanoseconds: monotonicNanoseconds(),
        pacing: chipPacing, timeScale: timeScale)
    }
    return ClientChunk(received: received, write: write, readCount: byteCount)
  }

  /// Handles the messages of one read: each arrives when its last byte does; `readOn` after
  /// each.
  func handle(_ chunk: ClientChunk, readingOn readOn: () -> Void) {
    let (received, write) = (chunk.received, chunk.write)
    let parsed = clientSide.access { $0.reception.parse(received, carriedAs: write) }
    let messages = parsed.messages
    note(parsed.faults)
    let counted = statistics.withLock { statistics in
      statistics.echoesIgnored += parsed.echoes
      statistics.clientBytesDiscarded += parsed.discarded
      statistics.clientSentencesRejected += parsed.badChecksums
      statistics.clientBytesReceived += received.count
      return statistics
    }
    clientSide.access {
      $0.reception.handler.noteLineTraffic(
        receivedBytes: counted.clientBytesReceived, skippedBytes: counted.clientBytesDiscarded,
        sentBytes: counted.bytesSent)
    }
    let fate = clientBytesTap == nil ? "dropped" : "passed on as they are"
    if parsed.unreported > 0 {
      logGarbage(
        "\(parsed.unreported) bytes from a client, neither a sentence nor a UBX frame: \(fate)")
    }
    if parsed.badChecksums > 0 {
      logGarbage(
        "\(parsed.badChecksums) sentences from a client, checksum missing or wrong: \(fate)")
    }
    let began = clientSide.access { side in
      messages.map { side.reception.arrival.startNanoseconds(ofStreamByte: $0.first) }
    }
    for ((message, arrived, _), began) in zip(messages, began) {
      // A restart earlier in this read may have made the chip deaf: a message whose first
      // byte came before its UART was up again is lost, even when the rest came after, in
      // this read or a later one.
      guard began >= deafUntil.load(ordering: .acquiring) else {
        count { $0.commandsLostWhileBooting += 1 }
        log.debug("\(slavePath): \(message) arrived while the chip boots: lost")
        continue
      }
      let (requested, faults, refused) = clientSide.access { side in
        (
          side.reception.handler.handle(message), side.reception.handler.takeInputFaults(),
          side.reception.handler.takeRefusedItems()
        )
      }
      note(faults)
      for item in refused { log.warning("\(slavePath): power-up: \(item)") }
      if !requested.isEmpty { effects(requested, arrived) }
      readOn()
    }
    // Counted once handled (or lost), so that a reader of the counter sees their effects.
    let badRTCM = messages.count(where: { entry in
      guard case .rtcm(.checksumFailed) = entry.message else { return false }
      return true
    })
    count {
      $0.commandsReceived += messages.count
      $0.rtcmChecksumErrors += badRTCM
    }
  }

  /// Logs a line about what a client wrote that the chip drops, at most one a second
  /// (`ClientReception.garbageLog`), saying how many were left out before it.
  private func logGarbage(_ text: String) {
    let now = monotonicNanoseconds()
    guard let leftOut = clientSide.access({ $0.reception.garbageLog.admit(now: now) }) else {
      return
    }
    let more = leftOut > 0 ? " (\(leftOut) more such reads since the last line)" : ""
    log.debug("\(slavePath): \(text)\(more)")
  }

  /// Counts the UBX frames a client sent that the chip drops or refuses, and logs each, at most
  /// one line a second (`ClientReception.inputFaultLog`).
  private func note(_ faults: [UBXInputFault]) {
    for fault in faults {
      count { statistics in
        switch fault.kind {
        case .badChecksum: statistics.ubxChecksumErrors += 1
        case .wrongLength: statistics.ubxLengthErrors += 1
        }
      }
      let now = monotonicNanoseconds()
      guard let leftOut = clientSide.access({ $0.reception.inputFaultLog.admit(now: now) })
      else {
        continue
      }
      let more = leftOut > 0 ? " (\(leftOut) more bad UBX frames since the last line)" : ""
      log.debug("\(slavePath): a client sent \(fault)\(more)")
    }
  }
}
