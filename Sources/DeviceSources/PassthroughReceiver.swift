import Synchronization
import SystemIO
import Udev

/// The real receiver's serial port while it is plugged in: opened, read, written and switched
/// in baud by the passthrough loop, on the runtime's I/O and scheduler threads. Every use holds
/// one lock, so a port is never used after it was closed.
package final class PassthroughReceiver: Sendable {
  /// What one read of the port gave.
  enum ReadOutcome: Equatable {
    /// This many bytes (at least one) are at the start of the buffer.
    case bytes(Int)
    /// Nothing waits now.
    case nothing
    /// The receiver went away (end of file, EIO), or no port is open.
    case lost
  }

  /// The receiver as `--passthrough` names it.
  let target: PassthroughTarget
  private let connection = Mutex(Connection())

  /// The open port and what it was last opened by, changed together under one lock.
  private struct Connection: ~Copyable {
    var port: SerialPort?
    /// The path the port was last opened by.
    var openedPath: String?
    /// What that path named when it was opened: a later open must name the same receiver.
    var openedIdentity: TerminalIdentity?
  }

  package init(target: PassthroughTarget) {
    self.target = target
  }

  /// The node the target names now: its path, or the one receiver `auto…` picks among the
  /// serial devices found.
  static func locate(_ target: PassthroughTarget) throws(PassthroughOpenError) -> String {
    switch target {
    case .path(let path):
      return path
    case .auto(let criterion):
      let devices = (try? UdevEnumerator.serialDevices()) ?? []
      switch criterion.select(from: devices) {
      case .success(let device): return device.deviceNode
      case .failure(let error): throw .noReceiver(error)
      }
    }
  }

  /// Finds the receiver and opens its port at `baud`, closing one open before. The terminal its
  /// path names must be the receiver's (`TerminalIdentity.ownership`), the same one once a port
  /// has been opened: another program's pseudo-terminal that took a freed number is left
  /// untouched.
  ///
  /// - Returns: the path opened.
  @discardableResult
  package func connect(baud: Int) throws(PassthroughOpenError) -> String {
    let path = try Self.locate(target)
    guard let identity = TerminalIdentity.of(path) else { throw .missing(path) }
    let before = connection.withLock { $0.openedIdentity }
    if case .refuse(let reason) = TerminalIdentity.ownership(of: identity, openedBefore: before) {
      throw .foreignTerminal(path, reason: reason)
    }
    let opened: SerialPort
    do {
      opened = try SerialPort.open(path, baud: baud)
    } catch {
      switch error {
      case .missing(let path): throw .missing(path)
      case .notATerminal(let path): throw .notATerminal(path)
      case .system(let error): throw .system(path, error)
      }
    }
    var slot: SerialPort? = consume opened
    connection.withLock {
      $0.port = slot.take()
      $0.openedPath = path
      $0.openedIdentity = identity
    }
    return path
  }

  /// Closes the port; reads then report `lost` and writes drop their bytes.
  package func disconnect() {
    _ = connection.withLock { $0.port.take() }
  }

  /// True while a port is open.
  var isConnected: Bool { connection.withLock { $0.port?.path != nil } }

  /// The path the port was last opened by (the target's own name before that).
  var path: String { connection.withLock { $0.openedPath } ?? target.description }

  /// The open port's descriptor, to watch on the I/O thread, or nil without a port.
  var rawDescriptor: Int32? {
    connection.withLock { $0.port?.descriptor.rawValue }
  }

  /// Reads what is there, without waiting.
  func read(into buffer: inout [UInt8]) -> ReadOutcome {
    connection.withLock { connection in
      // Optional chaining borrows the port; no port gives nil, as a failed read does.
      switch try? connection.port?.read(into: &buffer) {
      case .transferred(let count)?: return count > 0 ? .bytes(count) : .lost
      case .wouldBlock?: return .nothing
      case nil: return .lost
      }
    }
  }

  /// Writes what the port takes now of `bytes`; returns how many it took (0 without a port).
  func write(_ bytes: ArraySlice<UInt8>) -> Int {
    connection.withLock { connection in
      var remaining = bytes
      while !remaining.isEmpty,
        case .transferred(let count)? = try? connection.port?.write(remaining),
        count > 0
      {
        remaining = remaining.dropFirst(count)
      }
      return bytes.count - remaining.count
    }
  }

  /// Switches the open port to `baud`, discarding what it holds when `discardingInput`; false
  /// without a port or when the system refuses.
  func setBaud(_ baud: Int, discardingInput: Bool = false) -> Bool {
    connection.withLock { connection in
      guard connection.port?.path != nil else { return false }
      return (try? connection.port?.setBaud(baud, discardingInput: discardingInput)) != nil
    }
  }
}
