import Glibc
import NMEA
import Receiver
import Synchronization
import SystemIO

/// The emulated serial port: a pseudo-terminal whose clients come and go.
///
/// One I/O thread watches the slave node for opens and closes and reads what clients write;
/// the epoch thread calls `send`. Data goes out only while a client has the device open; when
/// the last one closes, what it left unread is discarded and the line settings reset, so the
/// next client starts with a current epoch in raw mode.
public final class SerialDevice: Sendable {
  /// The unread bytes the slave may hold before an epoch is dropped whole: the line
  /// discipline's 4 KiB buffer, so writes never block and never split an epoch.
  public static let unreadCapacity = 4095

  public let terminal: PseudoTerminal
  private let watcher: DeviceNodeWatcher
  private let thread: StoppableThread
  private let baud: Int
  private let log: Log
  private let handler: any ReceiverCommandHandler
  private let clients = Atomic<Int>(0)
  private let input = Mutex(ClientInput())
  private let statistics = Mutex(DeviceStatistics())

  /// Opens a pseudo-terminal at `baud` and starts watching it.
  public init(baud: Int, log: Log, handler: any ReceiverCommandHandler) throws(SystemError) {
    terminal = try PseudoTerminal.open(baud: baud)
    do {
      watcher = try DeviceNodeWatcher(path: terminal.slavePath)
      thread = try StoppableThread(name: "mockgps-device")
    } catch {
      terminal.close()
      throw error
    }
    self.baud = baud
    self.log = log
    self.handler = handler
  }

  /// Starts the I/O thread.
  public func start() throws(SystemError) {
    try thread.start { [self] in runIO() }
  }

  /// The number of clients that have the device open now.
  public var clientCount: Int { clients.load(ordering: .acquiring) }

  /// A copy of the counters.
  public var currentStatistics: DeviceStatistics { statistics.withLock { $0 } }

  /// Updates the counters.
  func count(_ update: (inout DeviceStatistics) -> Void) {
    statistics.withLock { update(&$0) }
  }

  /// What happened to an epoch offered to the device.
  public enum Admission: Equatable, Sendable {
    case accepted
    case noClient
    case overrun
  }

  /// Decides whether a whole epoch of `byteCount` bytes may be written now.
  public func admit(epochOf byteCount: Int) -> Admission {
    if clientCount == 0 {
      count { $0.epochsWithoutClient += 1 }
      return .noClient
    }
    if terminal.unreadByteCount() + byteCount > Self.unreadCapacity {
      count { $0.epochsOverrun += 1 }
      return .overrun
    }
    return .accepted
  }

  /// Notes the sentences of an epoch being sent, so that their echo is recognised.
  public func willSend(_ sentences: [RawSentence]) {
    input.withLock { $0.didSend(sentences) }
  }

  /// Writes part of an epoch; false when it could not be written (no client, buffer full).
  public func write(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard clientCount > 0 else { return false }
    var remaining = bytes
    while !remaining.isEmpty {
      guard case .transferred(let written) = (try? terminal.master.write(remaining)) ?? .wouldBlock,
        written > 0
      else { return false }
      count { $0.bytesSent += written }
      remaining = remaining.dropFirst(written)
    }
    return true
  }

  /// Stops the I/O thread and waits for it; the descriptors stay open until `close()`.
  public func stop() {
    thread.stop()
  }

  /// Closes the pseudo-terminal. Remove the device link first.
  public func close() {
    watcher.close()
    terminal.close()
  }

  private func runIO() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while thread.shouldRun {
      let ready =
        (try? Poll.wait(
          [
            (terminal.master, .readable), (watcher.descriptor, .readable),
            (thread.wakePipe.readEnd, .readable),
          ],
          timeoutMilliseconds: -1)) ?? []
      guard ready.count == 3 else { continue }
      count { $0.ioWakeups += 1 }
      if ready[2].contains(.readable) { thread.wakePipe.drain() }
      if ready[1].contains(.readable) { handleNodeEvents(watcher.readEvents()) }
      if ready[0].contains(.readable) { readClientBytes(into: &buffer) }
    }
  }

  private func handleNodeEvents(_ events: [DeviceNodeWatcher.Event]) {
    for event in events {
      switch event {
      case .opened:
        let before = clients.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        count { $0.clientOpens += 1 }
        if before == 0 { terminal.discardUnread() }
        log.debug("client opened \(terminal.slavePath) (\(before + 1) open)")
      case .closed:
        let before = clients.load(ordering: .acquiring)
        guard before > 0 else { continue }
        clients.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        log.debug("client closed \(terminal.slavePath) (\(before - 1) open)")
        if before == 1 {
          terminal.discardUnread()
          do {
            try terminal.resetLineSettings(baud: baud)
          } catch {
            log.warning("could not reset the line settings: \(error)")
          }
        }
      }
    }
  }

  private func readClientBytes(into buffer: inout [UInt8]) {
    while case .transferred(let count) = (try? terminal.master.read(into: &buffer)) ?? .wouldBlock,
      count > 0
    {
      let (commands, echoes) = input.withLock { input in
        let before = input.echoedSentenceCount
        let commands = input.receive(buffer.prefix(count))
        return (commands, input.echoedSentenceCount - before)
      }
      self.count {
        $0.commandsReceived += commands.count
        $0.echoesIgnored += echoes
      }
      // Only replies are applied so far, and a copy of the handler keeps no state between reads.
      var handler = self.handler
      for command in commands {
        for case .reply(let reply) in handler.handle(command) where !reply.isEmpty {
          _ = write(reply[...])
        }
      }
    }
  }
}
