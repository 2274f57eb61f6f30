import Foundation
import SystemIO

/// A test's client of mockgps's control socket: one JSON request line, one reply line, read
/// within a bound.
final class ControlClient {
  private let socket: FileDescriptor
  private var pending: [UInt8] = []

  /// Connects to the control socket at `path`, waiting up to `seconds` for it to appear.
  init(path: String, seconds: Double = 10) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      do {
        socket = try UnixSocket.connect(to: path)
        return
      } catch {
        guard Date() < deadline else { throw TestFailure("cannot connect to \(path): \(error)") }
        usleep(20_000)
      }
    }
  }

  /// Sends `request` (a JSON object without its newline) and returns the reply, parsed.
  func request(_ request: String, seconds: Double = 5) throws -> [String: Any] {
    try send(request)
    return try reply(seconds: seconds)
  }

  /// Sends `request` (a JSON object without its newline); read its reply with `reply`.
  func send(_ request: String) throws {
    _ = try UnixSocket.send(ArraySlice((request + "\n").utf8), on: socket)
  }

  /// The next reply, parsed, within `seconds`.
  func reply(seconds: Double = 5) throws -> [String: Any] {
    let line = try readLine(seconds: seconds)
    guard let reply = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
      throw TestFailure("not a JSON object: \(String(decoding: line, as: UTF8.self))")
    }
    return reply
  }

  /// Sends `request` and fails unless the reply is `{"ok":true,…}`.
  @discardableResult
  func accepted(_ request: String) throws -> [String: Any] {
    let reply = try self.request(request)
    guard reply["ok"] as? Bool == true else { throw TestFailure("\(request) -> \(reply)") }
    return reply
  }

  private func readLine(seconds: Double) throws -> [UInt8] {
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        defer { pending.removeFirst(newline + 1) }
        return Array(pending[..<newline])
      }
      let left = Int32(deadline.timeIntervalSinceNow * 1000)
      guard left > 0 else { throw TestFailure("no reply within \(seconds) s") }
      _ = try Poll.wait([socket.pollRequest(.readable)], timeoutMilliseconds: left)
      switch try socket.read(into: &buffer) {
      case .transferred(0): throw TestFailure("mockgps closed the control connection")
      case .transferred(let count): pending += buffer.prefix(count)
      case .wouldBlock: continue
      }
    }
  }
}
