import DeviceRuntime
import Glibc
import SystemIO

/// Tells a running gpsd about an emulator's device through gpsd's control socket (`gpsd -F
/// PATH`), as gpsd's hotplug script `gpsdctl` does: `+LINK` once the link exists, `-LINK` before
/// it is removed. gpsd then opens the device without a restart, and drops it when told.
///
/// gpsd 3.22's control protocol (`handle_control` in gpsd.c): one line, `+PATH\r\n` to add a
/// device or `-PATH\r\n` to remove one, the path ending at the first space or control
/// character; gpsd answers `OK\n`, or `ERROR\n` (`+` of a device it has, or with no room left;
/// `-` of one it does not have). gpsd reads the connection, blocking its own main loop, until
/// the client closes it: the connection is closed as soon as the answer is in.
///
/// Only a gpsd running now is told: one started later knows nothing of the device (start it
/// with the link on its command line, or restart mockgps).
public struct GpsdNotifier: Hashable, Sendable {
  /// The longest path of a Unix socket (`sun_path` holds 108 bytes with the final NUL).
  public static let longestSocketPath = UnixSocket.maximumPathLength
  /// How long gpsd has to accept and answer.
  public static let timeoutMilliseconds: Int32 = 2000

  /// gpsd's control socket.
  public let socketPath: String
  /// The device as gpsd is told it: the link, absolute (gpsd's working folder is not ours).
  public let devicePath: String

  /// Why gpsd could not be told.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens there (no gpsd, or one started without `-F`), or it cannot be reached.
    case unreachable(UnixSocket.SocketError)
    /// The connection failed on the way.
    case broken(SystemError)
    /// gpsd accepted the connection but did not answer in time.
    case noAnswer
    /// gpsd answered `ERROR`.
    case refused(String)
    /// gpsd answered something that is not its protocol.
    case unexpectedAnswer(String)

    public var description: String {
      switch self {
      case .unreachable(let error): return error.description
      case .broken(let error): return error.description
      case .noAnswer:
        return "gpsd did not answer within \(GpsdNotifier.timeoutMilliseconds / 1000) s"
      case .refused(let line): return "gpsd answered ERROR to '\(line)'"
      case .unexpectedAnswer(let answer): return "gpsd answered '\(answer)'"
      }
    }
  }

  /// A notifier for the device at `linkPath` (made absolute from the working folder).
  public init(socketPath: String, linkPath: String) {
    self.socketPath = socketPath
    devicePath = WorkingDirectory.absolute(linkPath)
  }

  /// True when gpsd's control protocol can name `path`: printable ASCII, no space.
  public static func canAnnounce(_ path: String) -> Bool {
    !path.isEmpty && path.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }

  /// The line that adds (`+`) or removes (`-`) the device.
  public func command(adding: Bool) -> String {
    (adding ? "+" : "-") + devicePath + "\r\n"
  }

  /// Tells gpsd to open the device.
  public func add() throws(Failure) { try send(command(adding: true)) }

  /// Tells gpsd to close and forget the device.
  public func remove() throws(Failure) { try send(command(adding: false)) }

  /// Sends `line` and reads gpsd's one-line answer.
  private func send(_ line: String) throws(Failure) {
    let answer = try exchange(line)
    switch answer {
    case "OK": return
    case "ERROR":
      // "\r\n" is one Character: dropping one takes the whole line ending.
      throw .refused(String(line.dropLast()))
    default:
      throw .unexpectedAnswer(answer)
    }
  }

  /// The answer to `line`, without its newline.
  private func exchange(_ line: String) throws(Failure) -> String {
    // Non-blocking: a gpsd whose queue of connections is full fails now instead of hanging.
    let socket: FileDescriptor
    do {
      socket = try UnixSocket.connect(to: socketPath, blocking: false)
    } catch {
      throw .unreachable(error)
    }
    let answer: [UInt8]?
    do {
      answer = try Self.ask(socket, line)
    } catch {
      throw .broken(error)
    }
    guard let answer else { throw .noAnswer }
    return String(
      decoding: answer.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") },
      as: UTF8.self)
  }

  /// Writes `line` (a short line goes whole into an empty socket) and reads up to a newline or
  /// the end; nil when nothing complete came within the timeout.
  private static func ask(_ descriptor: borrowing FileDescriptor, _ line: String)
    throws(SystemError) -> [UInt8]?
  {
    _ = try UnixSocket.send(ArraySlice(line.utf8), on: descriptor)
    let deadline = SystemClock.monotonicNanoseconds() + Int64(timeoutMilliseconds) * 1_000_000
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while !answer.contains(UInt8(ascii: "\n")) && answer.count < 64 {
      let left = Int32((deadline - SystemClock.monotonicNanoseconds()) / 1_000_000)
      guard left > 0 else { return nil }
      let events = try Poll.wait([descriptor.pollRequest(.readable)], timeoutMilliseconds: left)
      guard events.first?.isEmpty == false else { continue }
      switch try descriptor.read(into: &buffer) {
      case .transferred(0): return answer
      case .transferred(let count): answer += buffer.prefix(count)
      case .wouldBlock: continue
      }
    }
    return answer
  }
}

extension GpsdNotifier {
  /// Tells gpsd about the device and logs what came of it: a gpsd that is not there is a
  /// warning, and the run goes on.
  public func announce(log: Log) {
    do {
      try add()
      log.info("told gpsd at \(socketPath) about \(devicePath)")
    } catch {
      log.warning(
        "cannot tell gpsd at '\(socketPath)' about \(devicePath): \(error); going on without "
          + "(a gpsd started later is not told)")
    }
  }

  /// Tells gpsd to drop the device, and logs what came of it.
  public func withdraw(log: Log) {
    do {
      try remove()
      log.info("told gpsd at \(socketPath) to drop \(devicePath)")
    } catch {
      log.warning("cannot tell gpsd at '\(socketPath)' to drop \(devicePath): \(error)")
    }
  }
}
