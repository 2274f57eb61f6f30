import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// At the descriptor limit a listener cannot accept what waits in its backlog and stays
/// readable: mockgps rests its listeners instead of spinning on them, logs once with a count,
/// and serves again once descriptors are free: the TCP output and the control socket. The limit
/// bounds a hang, and counts from when the test is scheduled, which a full run on two cores
/// delays by minutes.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10)))
struct DescriptorLimitProcessTests {
  @Test(.enabled(if: findExecutable("prlimit") != nil))
  func listenersRestAtTheLimitLogOnceAndRecover() throws {
    let directory = try ScratchDirectory("fd-limit")
    defer { directory.remove() }
    let process = try TestProcess(
      findExecutable("prlimit") ?? "prlimit",
      [
        "--nofile=48:48", MockGPSBinary.path, "run", "--link", directory.path + "/tty",
        "--no-control", "--tcp", "127.0.0.1:0",
      ])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { process.standardOutput.contains("serving tcp://") })
    let port = try #require(
      process.standardOutput.split(separator: ":").last.flatMap {
        UInt16($0.prefix { $0.isNumber })
      })
    // TCP clients until the process has no descriptor left: the rest wait in the backlog.
    var clients: [Int32] = []
    defer { for client in clients { _ = close(client) } }
    for _ in 0..<80 {
      guard let client = Self.connect(port: port) else { break }
      clients.append(client)
    }
    try Self.expectRests(process.pid)
    let warnings = process.standardError.components(separatedBy: "cannot accept").count - 1
    #expect((1...2).contains(warnings), "one warning a minute, got \(warnings)")
    // Free the descriptors: a new client is served its epochs again.
    for client in clients { _ = close(client) }
    clients.removeAll()
    // The listener takes the closed connections still in its backlog first.
    var connected: Int32?
    for _ in 0..<50 where connected == nil {
      usleep(100_000)
      connected = Self.connect(port: port)
    }
    let client = try #require(connected, "no connection after the limit")
    defer { _ = close(client) }
    var timeout = timeval(tv_sec: 3, tv_usec: 0)
    _ = setsockopt(
      client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var byte: UInt8 = 0
    #expect(
      read(client, &byte, 1) == 1, "an epoch reaches the new client: \(process.standardError)")
  }

  /// The control socket's listener as the TCP output's above: clients until the process has no
  /// descriptor left, the rest waiting in the backlog; it rests, warns once, and serves a new
  /// client once they leave.
  @Test(.enabled(if: findExecutable("prlimit") != nil))
  func theControlListenerRestsAtTheLimitLogsOnceAndRecovers() throws {
    let directory = try ScratchDirectory("fd-limit-control")
    defer { directory.remove() }
    let socket = directory.path + "/control.sock"
    let process = try TestProcess(
      findExecutable("prlimit") ?? "prlimit",
      [
        "--nofile=48:48", MockGPSBinary.path, "run", "--link", directory.path + "/tty",
        "--control", socket,
      ])
    defer { process.kill() }
    #expect(
      process.wait(seconds: 10) { process.standardError.contains("control socket: \(socket)") })
    // Fewer than the listener's backlog (128): every connect returns at once.
    var clients = try (0..<80).map { _ in try ControlClient(path: socket) }
    #expect(process.wait(seconds: 10) { process.standardError.contains("cannot accept") })
    try Self.expectRests(process.pid)
    // One line (which says "cannot accept" twice: the warning and the error it quotes).
    let warnings = process.standardError.split(separator: "\n").filter {
      $0.contains("control socket: cannot accept")
    }
    #expect(warnings.count == 1, "one warning a minute: \(warnings)")
    // Free the descriptors: the closed connections in the backlog are taken and dropped, and a
    // new client is answered.
    clients.removeAll()
    let client = try ControlClient(path: socket)
    let reply = try client.request(#"{"cmd":"status"}"#, seconds: 10)
    #expect(reply["ok"] as? Bool == true, "\(reply) \(process.standardError)")
  }

  /// The limit above counts on the process starting with its own descriptors only. The test
  /// runner's threads hold pipes and sockets that are not close-on-exec (other tests' children's
  /// output, their clients): inherited, they took the room this test counts on, and in CI the
  /// new client waited in the backlog behind closed connections accepted a few at a time.
  @Test func aStartedProcessInheritsNoDescriptorOfTheRunner() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { _ = close(end) } }
    let directory = try ScratchDirectory("fd-inherit")
    defer { directory.remove() }
    let (process, _) = try MockGPSBinary.start(["--link", directory.path + "/tty", "--baud", "0"])
    defer { process.kill() }
    let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd")
      .compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.pid)/fd/\($0)")
      }
    let leaked = ends.map {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }
    for case let end? in leaked { #expect(!held.contains(end), "\(end) inherited") }
  }

  /// A connected TCP socket to 127.0.0.1:`port`, or nil when connecting fails.
  static func connect(port: UInt16) -> Int32? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    // Once the backlog is full the kernel ignores the handshake: give up after 300 ms instead
    // of retrying for minutes (connect(2) honours the send timeout).
    var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
    _ = setsockopt(
      socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      _ = close(socket)
      return nil
    }
    return socket
  }

  /// User and system time of a process so far, in clock ticks (`/proc/PID/stat`).
  /// Expects `pid` to use under 20 % of a core over 2 s, half a second after the limit was
  /// reached: spinning takes a core (or the share of one that a loaded machine leaves, over
  /// 60 %); resting takes a few accept calls a second.
  static func expectRests(_ pid: pid_t, sourceLocation: SourceLocation = #_sourceLocation) throws {
    usleep(500_000)
    let before = try cpuTicks(of: pid)
    usleep(2_000_000)
    let used = try cpuTicks(of: pid) - before
    let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
    #expect(
      used * 100 < ticksPerSecond * 2 * 20, "\(used) ticks of CPU in 2 s at the limit",
      sourceLocation: sourceLocation)
    print("\(used) ticks of CPU in 2 s at the descriptor limit")
  }

  static func cpuTicks(of pid: pid_t) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    guard let close = stat.lastIndex(of: ")") else { throw TestFailure("no stat for \(pid)") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
      throw TestFailure("unreadable stat: \(stat)")
    }
    return user + system
  }
}
