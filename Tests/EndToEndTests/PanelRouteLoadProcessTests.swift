import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// A panel `route` is read on a thread of its own while its connection waits suspended: the
/// panel serves its other requests meanwhile, a SIGTERM does not wait for the file, and the
/// panel's loads and the control socket's share the process's two slots.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct PanelRouteLoadProcessTests {
  /// A running `mockgps run --panel 0 --panel-files FOLDER --control SOCKET`, with a CSV
  /// route of 8 MB in the folder (seconds to load in a debug build).
  final class PanelRun {
    let scratch: ScratchDirectory
    let process: TestProcess
    let route: String
    let socket: String
    let base: String
    let token: String
    let curl: String

    init(_ name: String) throws {
      scratch = try ScratchDirectory(name)
      let files = scratch.path + "/files"
      mkdir(files, 0o755)
      route = files + "/large.csv"
      try Fixtures.writeLargeCSVRoute(at: route, bytes: 8 << 20)
      let socket = scratch.path + "/control.sock"
      self.socket = socket
      curl = try #require(findExecutable("curl"))
      let process = try TestProcess(
        MockGPSBinary.path,
        [
          "run", "--link", scratch.path + "/gps", "--control", socket, "--panel", "0",
          "--panel-files", files,
        ])
      self.process = process
      let started = process.wait(seconds: 10) {
        process.standardError.contains("panel at http://")
          && FileManager.default.fileExists(atPath: socket)
      }
      let url = process.standardError.split(separator: "\n").first { $0.contains("panel at") }?
        .split(separator: " ").last
      guard started, let url else {
        process.kill()
        throw TestFailure("mockgps did not start: \(process.standardError)")
      }
      base = String(url.prefix { $0 != "?" })
      token = String(url.split(separator: "=").last ?? "")
    }

    /// `curl` of `path` (with the token), a POST of `body` when given, as a process of its
    /// own: its standard output is the body, then a line with the status.
    func curl(_ path: String, body: String? = nil) throws -> TestProcess {
      var arguments = ["-s", "-m", "300", "-w", "\n%{http_code}"]
      if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
      let separator = path.contains("?") ? "&" : "?"
      return try TestProcess(
        curl, arguments + ["\(base)\(path.dropFirst())\(separator)token=\(token)"])
    }

    /// The panel's `route` of the large file, as a curl process.
    func loadThroughPanel() throws -> TestProcess {
      try curl("/api/command?device=0", body: #"{"cmd":"route","file":"\#(route)"}"#)
    }

    /// The process's threads named `mockgps-load`: one per route being read.
    var loadThreads: Int {
      let folder = "/proc/\(process.pid)/task"
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return tasks.filter {
        (try? String(contentsOfFile: folder + "/" + $0 + "/comm", encoding: .utf8))
          == "mockgps-load\n"
      }.count
    }

    func stop() {
      process.kill()
      scratch.remove()
    }
  }

  /// The body and status a finished curl printed.
  static func reply(_ curl: TestProcess, seconds: Double) -> (status: Int?, body: String) {
    _ = curl.exitStatus(within: seconds)
    let text = curl.standardOutput
    guard let newline = text.lastIndex(of: "\n") else { return (nil, text) }
    var body = text[..<newline]
    if body.hasSuffix("\n") { body = body.dropLast() }
    return (Int(text[text.index(after: newline)...]), String(body))
  }

  /// `GET /api/status` is answered while a panel route loads, in well under half the load's
  /// time; then a SIGTERM a second at most into a second load ends the process within a
  /// quarter of a load's time, with status 0. Before, the load ran on libmicrohttpd's one
  /// thread: the status waited for it (16 s was measured), and so did the stop.
  @Test func aPanelRouteLoadStallsNoOtherRequestAndAStopDoesNotWaitForIt() throws {
    let run = try PanelRun("panel-route-load")
    defer { run.stop() }
    let start = Date()
    let loader = try run.loadThroughPanel()
    defer { loader.kill() }
    #expect(run.process.wait(seconds: 10) { run.loadThreads == 1 }, "no load thread")
    let status = Self.reply(try run.curl("/api/status?device=0"), seconds: 120)
    let statusSeconds = Date().timeIntervalSince(start)
    let loaded = Self.reply(loader, seconds: 300)
    let loadSeconds = Date().timeIntervalSince(start)
    #expect(status.status == 200, "\(status)")
    #expect(loaded.status == 200, "\(loaded)")
    #expect(loaded.body == #"{"ok":true}"#)
    #expect(loadSeconds >= 2, "the load took \(loadSeconds) s: too fast to tell a stall apart")
    #expect(statusSeconds < loadSeconds / 2, "status after \(statusSeconds) s of \(loadSeconds)")

    let second = try run.loadThroughPanel()
    defer { second.kill() }
    // Without a thread of its own, the load holds the library's thread from about now on.
    let threadSeen = run.process.wait(seconds: 1) { run.loadThreads == 1 }
    let stopping = Date()
    run.process.signal(SIGTERM)
    #expect(run.process.exitStatus(within: 60) == 0, "\(run.process.standardError)")
    let stopSeconds = Date().timeIntervalSince(stopping)
    #expect(stopSeconds < loadSeconds / 4, "the stop took \(stopSeconds) s of \(loadSeconds)")
    #expect(threadSeen, "no second load thread")
  }

  /// A control socket's load and a panel's fill the process's two slots: a third, from either
  /// side, is refused with the same words, the panel's with 503; both loads then succeed.
  /// Before, the panel's load took no slot: a third from the control socket was read.
  @Test func controlAndPanelLoadsShareTheTwoSlots() throws {
    let run = try PanelRun("panel-route-slots")
    defer { run.stop() }
    let loader = try ControlClient(path: run.socket)
    try loader.send(#"{"cmd":"route","file":"\#(run.route)"}"#)
    let panelLoad = try run.loadThroughPanel()
    defer { panelLoad.kill() }
    #expect(run.process.wait(seconds: 10) { run.loadThreads == 2 }, "not two load threads")
    let busy = "route: 2 route files are loading already; try again when one is done"
    let third = Self.reply(
      try run.curl(
        "/api/command?device=0", body: #"{"cmd":"route","file":"\#(run.route)","id":3}"#),
      seconds: 10)
    #expect(third.status == 503, "\(third)")
    #expect(third.body == #"{"ok":false,"id":3,"error":"\#(busy)"}"#)
    let other = try ControlClient(path: run.socket)
    let refused = try other.request(#"{"cmd":"route","file":"\#(run.route)"}"#, seconds: 10)
    #expect(refused["ok"] as? Bool == false)
    #expect(refused["error"] as? String == busy)
    #expect(try loader.reply(seconds: 300)["ok"] as? Bool == true)
    let panelReply = Self.reply(panelLoad, seconds: 300)
    #expect(panelReply.status == 200, "\(panelReply)")
    run.process.signal(SIGTERM)
    #expect(run.process.exitStatus(within: 10) == 0)
  }
}
