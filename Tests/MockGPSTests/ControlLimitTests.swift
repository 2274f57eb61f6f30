import Control
import DeviceRuntime
import Foundation
import Glibc
import MockGPSTestSupport
import Servers
import SystemIO
import TestFixtures
import Testing

/// A control server alone on a temporary socket, answering every request `{"ok":true}`.
final class LimitedControlServer {
  let io: IOLoop
  let server: ControlServer
  let directory: String
  let log = CollectedLog()
  var path: String { server.path }

  init(groupName: String? = nil) throws {
    directory = "/tmp/mockgps-limit-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    io = try IOLoop(name: "test-control-limit")
    try io.start()
    let collected = log
    do {
      server = try ControlServer(
        settings: ControlSettings(path: directory + "/control.sock", groupName: groupName),
        io: io, log: Log(level: .debug, sink: { collected.append($0) }),
        handler: { _, _ in .ok() })
    } catch {
      io.stop()
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  func stop() {
    server.close()
    io.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// The control socket at its limits: 256 connections, then a refusal line and a closed
/// connection, one warning; a user other than root and the daemon's own holds at most 64, and
/// the last 32 are kept for those two, so that idle connections never lock the operator out.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ControlLimitTests {
  @Test func the257thConnectionIsRefusedAndOneThatLeavesMakesRoom() throws {
    let running = try LimitedControlServer()
    defer { running.stop() }
    var clients = try (0..<ControlAdmission.total).map { _ in
      try ControlTestClient(path: running.path)
    }
    #expect(Eventually.holds(within: 10) { running.server.clientCount == ControlAdmission.total })
    let extra = try ControlTestClient(path: running.path)
    #expect(extra.line() == #"{"ok":false,"error":"too many control connections"}"#)
    #expect(extra.isClosed(within: 2), "and its connection is closed")
    #expect(
      try clients[0].request(#"{"cmd":"status"}"#) == #"{"ok":true}"#, "the others are served")
    #expect(try clients[255].request(#"{"cmd":"status"}"#) == #"{"ok":true}"#)
    clients.removeLast().close()
    #expect(
      Eventually.holds(within: 10) { running.server.clientCount == ControlAdmission.total - 1 })
    let next = try ControlTestClient(path: running.path)
    #expect(try next.request(#"{"cmd":"status"}"#) == #"{"ok":true}"#)
    #expect(running.log.count(containing: "control socket: connection of uid 0") == 1)
    #expect(running.log.contains("too many control connections; 1 refused so far"))
    // A second refusal within the minute is not logged, but counted when the server closes.
    clients.append(next)
    let again = try ControlTestClient(path: running.path)
    #expect(again.line() == #"{"ok":false,"error":"too many control connections"}"#)
    #expect(running.log.count(containing: "control socket: connection of uid 0") == 1)
    running.server.close()
    #expect(running.log.contains("control socket: 2 connections refused in all"))
  }

  /// Four other users, one after the other, try 70 connections each and hold the ones they
  /// get: 64 for each of the first three (their share), 32 for the fourth (the last 32 are
  /// kept); root then gets those 32, and no more. They run as a python process of root's that
  /// forks one child a user, which takes the user's uid (`setuid`) before it connects.
  @Test(.enabled(if: geteuid() == 0, "runs clients as other users"))
  func otherUsersHoldTheirShareAndRootStillGetsIn() throws {
    let running = try LimitedControlServer(groupName: "nogroup")
    defer { running.stop() }
    chmod(running.directory, 0o755)
    let group = try #require(Groups.groupID(named: "nogroup"))
    let result = try ChildProcess.run(
      "/usr/bin/python3", ["-c", Self.clients, running.path, "\(group)"])
    #expect(result.status == 0, "\(result.errorText)")
    let lines = result.outputText.split(separator: "\n").map(String.init)
    let share = "too many control connections of this user (64 at most)"
    let reserve =
      "too many control connections (the last 32 are kept for root and the daemon's user)"
    #expect(
      lines == [
        "65534 64 \(share)", "65533 64 \(share)", "65532 64 \(share)", "65531 32 \(reserve)",
        "0 32 too many control connections",
      ], "\(result.errorText)")
    #expect(running.log.count(containing: "control socket: connection of") == 1)
    // Every child has gone: so have its connections.
    #expect(Eventually.holds(within: 10) { running.server.clientCount == 0 })
  }

  /// Connects `count` times as one user, each time sending a request and reading its reply;
  /// keeps the connections answered, and says the uid, how many and the refusals' words.
  static let clients = #"""
    import json, os, socket, sys
    path, group = sys.argv[1], int(sys.argv[2])

    def connect(uid, count):
        held, refusals = [], set()
        for _ in range(count):
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(10)
            s.connect(path)
            try:
                s.sendall(b'{"cmd":"status"}\n')
            except OSError:
                pass  # refused and closed already: the refusal waits to be read
            reply = b""
            try:
                while not reply.endswith(b"\n"):
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    reply += chunk
            except OSError:
                pass
            if reply == b'{"ok":true}\n':
                held.append(s)
            else:
                refusals.add(json.loads(reply).get("error", reply.decode()))
                s.close()
        return held, "%d %d %s" % (uid, len(held), "|".join(sorted(refusals)))

    release_read, release_write = os.pipe()
    children = []
    for uid in [65534, 65533, 65532, 65531]:
        report_read, report_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(report_read)
            os.close(release_write)
            os.setgroups([])
            os.setgid(group)
            os.setuid(uid)
            held, line = connect(uid, 70)
            os.write(report_write, line.encode())
            os.close(report_write)
            os.read(release_read, 1)  # holds its connections until root is done
            os._exit(0)
        os.close(report_write)
        with os.fdopen(report_read) as report:
            print(report.read())
        children.append(pid)
    held, line = connect(0, 40)
    print(line)
    sys.stdout.flush()
    os.close(release_write)
    for pid in children:
        os.waitpid(pid, 0)
    """#
}
