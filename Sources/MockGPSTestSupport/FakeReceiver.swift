import Glibc
import Replay
import Synchronization
import SystemIO

/// The "real receiver" of passthrough tests: a pseudo-terminal pair whose slave is published at
/// a link path, as udev publishes a USB receiver's node. The test writes what the receiver
/// sends (raw bytes, or a corpus log's epochs), reads back what it was sent, and unplugs and
/// replugs it: unplugging removes the link and closes the master, so that whoever has the slave
/// open reads end-of-file or EIO, as from a USB receiver pulled out; replugging opens a new pair
/// (a new `/dev/pts/N`) and publishes it at the same path.
public final class FakeReceiver: Sendable {
  /// Where the receiver's node appears.
  public let linkPath: String
  private let terminal = Mutex<PseudoTerminal?>(nil)
  private let masterDescriptor = Atomic<Int32>(-1)
  private let sent = Mutex<[UInt8]>([])
  private let readsPaused = Atomic<Bool>(false)
  private let reader: StoppableThread

  /// Opens the pair at `baud` and publishes its slave at `linkPath` (replacing a stale link).
  public init(linkPath: String, baud: Int = 9600) throws {
    self.linkPath = linkPath
    reader = try StoppableThread(name: "fake-receiver")
    try plugIn(baud: baud)
    try reader.start { [self] in readWhatIsSent() }
  }

  /// Stops reading and pulls the receiver out for good; call it at the end of a test (the
  /// reading thread holds the receiver until then). May be called any number of times.
  public func close() {
    reader.stop()
    unplug()
  }

  /// Stops (true) or resumes (false) reading what is sent: a receiver whose line is slower
  /// than its writer, whose queue fills.
  public func pauseReading(_ paused: Bool) {
    readsPaused.store(paused, ordering: .releasing)
  }

  /// True while plugged in.
  public var isPluggedIn: Bool { masterDescriptor.load(ordering: .acquiring) >= 0 }

  /// The slave's path while plugged in.
  public var slavePath: String? { terminal.withLock { $0?.slavePath } }

  /// The baud of the line as the program on the other side (mockgps) set it; nil unplugged.
  public var lineBaud: Int? {
    terminal.withLock { (try? $0?.lineSettings())?.baud }
  }

  /// Every byte written to the receiver so far (across replugs).
  public var received: [UInt8] { sent.withLock { $0 } }

  /// Writes bytes as the receiver sending them; waits (up to 2 s) while the line is full.
  /// Returns false when unplugged or when the other side does not read.
  @discardableResult
  public func send(_ bytes: some Collection<UInt8>) -> Bool {
    var remaining = ArraySlice(bytes)
    let deadline = DeviceReader.monotonicNanoseconds() + 2_000_000_000
    while !remaining.isEmpty {
      let result = terminal.withLock { (try? $0?.master.write(remaining)) ?? nil }
      if case .transferred(let count) = result, count > 0 {
        remaining = remaining.dropFirst(count)
        continue
      }
      guard isPluggedIn, DeviceReader.monotonicNanoseconds() < deadline else { return false }
      usleep(2_000)
    }
    return true
  }

  /// Writes text as the receiver sending it.
  @discardableResult
  public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Sends a log's epochs (as `ReplayReader` groups them, as recorded), `gapMilliseconds`
  /// apart, up to `maxEpochs`, or until unplugged. Returns the number of epochs sent.
  @discardableResult
  public func play(
    logPath: String, gapMilliseconds: Int, maxEpochs: Int = .max,
    shouldContinue: () -> Bool = { true }
  ) throws -> Int {
    let reader = try ReplayReader(path: logPath)
    var count = 0
    while count < maxEpochs, shouldContinue(), isPluggedIn, let epoch = try reader.next() {
      for packet in epoch.packets where !send(packet.bytes) { return count }
      count += 1
      usleep(useconds_t(gapMilliseconds * 1000))
    }
    return count
  }

  /// Pulls the receiver out: removes the link and closes the master.
  public func unplug() {
    if let target = terminal.withLock({ $0?.slavePath }),
      case .link(target, _) = DeviceLink.inspect(linkPath)
    {
      unlink(linkPath)
    }
    masterDescriptor.store(-1, ordering: .releasing)
    _ = terminal.withLock { $0.take() }
  }

  /// Ends as a killed owner does: the master closes, the link stays behind, pointing to a
  /// number any program may get next.
  public func crash() {
    masterDescriptor.store(-1, ordering: .releasing)
    _ = terminal.withLock { $0.take() }
  }

  /// Plugs it back in: a new pair, published at the same path.
  public func replug(baud: Int = 9600) throws {
    unplug()
    try plugIn(baud: baud)
  }

  private func plugIn(baud: Int) throws {
    let pair = try PseudoTerminal.open(baud: baud)
    unlink(linkPath)
    guard symlink(pair.slavePath, linkPath) == 0 else {
      throw SystemError("link to \(pair.slavePath)", path: linkPath, errno: errno)
    }
    masterDescriptor.store(pair.master.rawValue, ordering: .releasing)
    var slot: PseudoTerminal? = consume pair
    terminal.withLock { $0 = slot.take() }
  }

  private func readWhatIsSent() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while reader.shouldRun {
      let descriptor = masterDescriptor.load(ordering: .acquiring)
      guard descriptor >= 0, !readsPaused.load(ordering: .acquiring) else {
        _ = reader.sleep(untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 20_000_000)
        continue
      }
      // A plain poll, not the thread's: an unplug may close the descriptor meanwhile, which
      // poll reports (POLLNVAL) and the read below, under the lock, then skips.
      let ready = try? Poll.wait(
        [Poll.Request(rawDescriptor: descriptor, events: .readable)], timeoutMilliseconds: 50)
      let result = terminal.withLock { terminal -> FileDescriptor.TransferResult? in
        guard terminal?.master.rawValue == descriptor else { return nil }
        return try? terminal?.master.read(into: &buffer)
      }
      if case .transferred(let count) = result, count > 0 {
        sent.withLock { $0 += buffer.prefix(count) }
      } else if ready?.first?.contains(.hangUp) == true {
        // Nobody has the slave open: the master reports a hang-up until someone does.
        _ = reader.sleep(untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 20_000_000)
      }
    }
  }
}
