import DeviceRuntime
import Foundation
import Glibc
import MockGPS
import Receiver
import Servers
import SystemIO

/// A client of a control socket for tests: sends lines, reads reply lines with a timeout.
final class ControlTestClient {
  let socket: FileDescriptor
  private var pending: [UInt8] = []

  init(path: String) throws {
    socket = try UnixSocket.connect(to: path)
  }

  /// Closes the connection (as a client that goes away).
  func close() {
    shutdown(socket.rawValue, Int32(SHUT_RDWR))
  }

  /// Sends text as it is (add the newline).
  func send(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let ready = try Poll.wait([socket.pollRequest(.writable)], timeoutMilliseconds: 5_000)
      guard ready.first?.contains(.writable) == true else { throw TimedOut() }
      if case .transferred(let count) = try UnixSocket.send(bytes, on: socket) {
        bytes = bytes.dropFirst(count)
      }
    }
  }

  /// The next line, or nil when none comes within `seconds` or the server closed.
  func line(within seconds: Double = 5) -> String? {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        defer { pending.removeSubrange(...newline) }
        return String(decoding: pending[..<newline], as: UTF8.self)
      }
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < deadline else { return nil }
      let ready =
        (try? Poll.wait(
          [socket.pollRequest(.readable)],
          timeoutMilliseconds: Int32(min((deadline - now) / 1_000_000 + 1, 1000)))) ?? []
      guard ready.first?.isEmpty == false else { continue }
      guard case .transferred(let count) = (try? socket.read(into: &buffer)) ?? .transferred(0),
        count > 0
      else { return nil }
      pending += buffer[..<count]
    }
  }

  /// True when the server closes the connection within `seconds`: a read comes to its end
  /// (what it sent before is kept for `line`); false when it stays open.
  func isClosed(within seconds: Double) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while DispatchTime.now().uptimeNanoseconds < deadline {
      let ready = (try? Poll.wait([socket.pollRequest(.readable)], timeoutMilliseconds: 50)) ?? []
      guard ready.first?.isEmpty == false else { continue }
      // A read that fails (reset) ends the connection as an end of file does.
      switch (try? socket.read(into: &buffer)) ?? .transferred(0) {
      case .transferred(0): return true
      case .transferred(let count): pending += buffer[..<count]
      case .wouldBlock: continue
      }
    }
    return false
  }

  /// Sends one request line and returns its reply.
  func request(_ json: String) throws -> String? {
    try send(json + "\n")
    return line()
  }

  struct TimedOut: Error {}
}

/// An emulator on a unique link in a temporary folder with a control socket beside it,
/// stopped (and the folder removed) by `stop()`.
final class ControlledEmulator {
  let emulator: Emulator
  let directory: String
  let log = CollectedLog()
  var linkPath: String { emulator.link.path }
  var controlPath: String

  init(
    rateHz: Double = 5, baud: Int = 115_200, groupName: String? = nil,
    socketName: String = "control.sock", explicit: Bool = true,
    directory given: String? = nil, source: EmulatorConfiguration.Source? = nil,
    stallLimitSeconds: Double? = nil, requestDeadlineSeconds: Double? = nil
  ) throws {
    directory = given ?? "/tmp/mockgps-ctl-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    controlPath = directory + "/" + socketName
    var configuration = EmulatorConfiguration(
      linkPath: directory + "/tty-\(UUID().uuidString.prefix(4))",
      cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: baud))
    if let source { configuration.source = source }
    configuration.control = ControlSettings(
      path: controlPath, groupName: groupName, isExplicit: explicit)
    if let stallLimitSeconds {
      configuration.control?.stallLimitNanoseconds = Int64(stallLimitSeconds * 1e9)
    }
    if let requestDeadlineSeconds {
      configuration.control?.requestDeadlineNanoseconds = Int64(requestDeadlineSeconds * 1e9)
    }
    let collected = log
    emulator = try Emulator(
      configuration: configuration,
      log: Log(level: .debug, sink: { line in collected.append(line) }))
    do {
      try emulator.start()
    } catch {
      emulator.stop()
      throw error
    }
  }

  /// Stops the emulator; `removingFolder` false keeps the folder for a second emulator.
  func stop(removingFolder: Bool = true) {
    emulator.stop()
    if removingFolder { try? FileManager.default.removeItem(atPath: directory) }
  }
}

/// Hands an object to one other thread of a test. A control client may be sent to from one
/// thread and read from another: `send` touches only the socket, `line` only its own buffer,
/// so the two never share mutable state.
final class SharedForTest<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
