import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The README's control socket examples (Control socket, `mockgps ctl`, From Python), run as
/// printed with the link and the socket in a scratch folder: each does what the text says.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ReadmeControlExamplesTests {
  static let socat = findExecutable("socat")

  /// A `mockgps run` of the README started with `/bin/sh`, its link and socket substituted.
  static func start(_ command: String) throws -> TestProcess {
    let folder = URL(fileURLWithPath: MockGPSBinary.path).deletingLastPathComponent().path
    let process = try TestProcess("/bin/sh", ["-c", "PATH=\(folder):$PATH; exec \(command)"])
    guard process.wait(seconds: 10, until: { process.standardOutput.contains(" -> /dev/pts/") })
    else {
      process.kill()
      throw TestFailure("\(command) did not start: \(process.standardError)")
    }
    return process
  }

  /// The control socket a running mockgps named in its log.
  static func socket(of process: TestProcess) throws -> String {
    _ = process.wait(seconds: 5) { process.standardError.contains("control socket: ") }
    let line = try #require(
      process.standardError.split(separator: "\n").first { $0.contains("control socket: ") })
    return String(line.split(separator: "control socket: ", maxSplits: 1)[1])
  }

  static func status(_ socket: String) throws -> [String: Any] {
    try ControlClient(path: socket).accepted(#"{"cmd":"status"}"#)
  }

  /// The status once `condition` holds of it (a change shows from the next epoch on), or the
  /// last one after 5 s.
  static func status(_ socket: String, once condition: ([String: Any]) -> Bool) throws
    -> [String: Any]
  {
    var last = try status(socket)
    _ = Eventually.holds(within: 5, intervalMicroseconds: 50_000) {
      last = (try? status(socket)) ?? last
      return condition(last)
    }
    return last
  }

  /// True when `status` stands at 48.8584, 2.2945 (and at `altitude`, when given).
  static func atTheTower(_ status: [String: Any], altitude: Double? = nil) -> Bool {
    status["lat"] as? Double == 48.8584 && status["lon"] as? Double == 2.2945
      && (altitude == nil || status["alt"] as? Double == altitude)
  }

  /// `mockgps run --position 51.5,-0.14` listens on the default socket its comment names (for
  /// root), and socat's request moves the receiver that `--control` names, answered
  /// `{"ok":true}` as printed.
  @Test(.enabled(if: socat != nil || GpsdSession.required, "needs socat"))
  func theControlSocketBlockRunsAsPrinted() throws {
    let block = try ReadmeBlock.containing("UNIX-CONNECT:/tmp/a.sock")
    let directory = try ScratchDirectory("readme-control")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let first = try block.line(containing: "mockgps run --position 51.5,-0.14")
    let receiver = try Self.start(ReadmeBlock.command(first, []) + " --link \(link)")
    defer { receiver.kill() }
    #expect(receiver.standardOutput.contains("position 51.5,-0.14,0.0)"))
    let socket = try Self.socket(of: receiver)
    #expect(first.contains("# control socket: /run/mockgps/dev-ttyMOCKGPS.sock (root)"))
    if geteuid() == 0, let escape = findExecutable("systemd-escape") {
      let escaped = try TestProcess(escape, ["--path", link])
      #expect(escaped.exitStatus(within: 5) == 0)
      let name = escaped.standardOutput.trimmingCharacters(in: .newlines)
      #expect(socket == "/run/mockgps/\(name).sock", "\(receiver.standardError)")
    }
    #expect(try Self.status(socket)["link"] as? String == link)

    let substitutions = [
      ("/tmp/ttyA", directory.path + "/ttyA"), ("/tmp/a.sock", "\(directory.path)/a.sock"),
    ]
    let second = try Self.start(
      ReadmeBlock.command(try block.line(containing: "--control /tmp/a.sock"), substitutions))
    defer { second.kill() }
    _ = try ControlClient(path: directory.path + "/a.sock")
    let request = try block.line(containing: "| socat - UNIX-CONNECT:")
    let (status, output, errors) = try ReadmeBlock.run(
      ReadmeBlock.command(request, substitutions))
    #expect(status == 0, "\(errors)")
    let printed = try #require(block.lines.last)
    #expect(printed == #"{"ok":true}"#)
    #expect(output == printed + "\n")
    let moved = try Self.status(directory.path + "/a.sock") { Self.atTheTower($0, altitude: 35) }
    #expect(Self.atTheTower(moved, altitude: 35), "\(moved)")
  }

  /// Each line of the `mockgps ctl` block does what its comment says, and `ctl` exits 0, 1 and
  /// 69 as the text after it says.
  @Test func theCtlBlockRunsAsPrinted() throws {
    let block = try ReadmeBlock.containing("mockgps ctl --link /tmp/ttyA position")
    let directory = try ScratchDirectory("readme-ctl")
    defer { directory.remove() }
    let (linkA, socketB) = (directory.path + "/ttyA", directory.path + "/a.sock")
    // The receiver the lines without a socket reach (on its default socket, as /dev/ttyMOCKGPS
    // is reached), and the one on `--control /tmp/a.sock`.
    let first = try Self.start("mockgps run --link \(linkA)")
    defer { first.kill() }
    let socketA = try Self.socket(of: first)
    let second = try Self.start("mockgps run --link \(directory.path)/ttyB --control \(socketB)")
    defer { second.kill() }
    _ = try ControlClient(path: socketB)
    let substitutions = [
      ("mockgps ctl status", "mockgps ctl --link \(linkA) status"),
      ("mockgps ctl --json status", "mockgps ctl --link \(linkA) --json status"),
      ("/tmp/ttyA", linkA), ("/tmp/a.sock", socketB),
    ]
    func run(_ text: String) throws -> (Int32?, String, String) {
      try ReadmeBlock.run(ReadmeBlock.command(try block.line(containing: text), substitutions))
    }

    let status = try run("mockgps ctl status")
    #expect(status.0 == 0, "\(status.2)")
    #expect(status.1.contains("\nlink                         \(linkA)\n"), "\(status.1)")
    let moved = try run("position 48.8584 2.2945 35")
    #expect(moved.0 == 0 && moved.1 == "ok\n", "\(moved)")
    let fix = try run("fix none")
    #expect(fix.0 == 0 && fix.1 == "ok\n", "\(fix)")
    let lost = try Self.status(socketB) { $0["fix"] as? String == "none" }
    #expect(lost["fix"] as? String == "none", "\(lost)")
    let there = try Self.status(socketA) { Self.atTheTower($0, altitude: 35) }
    #expect(Self.atTheTower(there, altitude: 35), "\(there)")
    let json = try run("--json status")
    #expect(json.0 == 0)
    let lines = json.1.split(separator: "\n")
    #expect(lines.count == 1, "the raw reply line: \(json.1)")
    let reply = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8))
    let fields = try #require(reply as? [String: Any])
    #expect(fields["ok"] as? Bool == true)
    #expect(Self.atTheTower(fields, altitude: 35), "\(fields)")

    let text =
      "It exits 0 when the request is accepted, 1 when it is refused, 69 when nothing listens"
    #expect(ReadmeBlock.readme.contains(text))
    let refused = try ReadmeBlock.run("mockgps ctl --control \(socketB) fix 4d")
    #expect(refused.0 == 1, "\(refused)")
    let nobody = try ReadmeBlock.run("mockgps ctl --control \(directory.path)/none.sock status")
    #expect(nobody.0 == 69, "\(nobody)")
  }

  /// The five lines of Python, the receiver's socket put in, move the receiver and assert on
  /// the reply.
  @Test func thePythonBlockRunsAsPrinted() throws {
    let block = try ReadmeBlock.containing("import json, socket")
    #expect(block.language == "python")
    let directory = try ScratchDirectory("readme-python")
    defer { directory.remove() }
    let receiver = try Self.start("mockgps run --link \(directory.path)/ttyMOCKGPS")
    defer { receiver.kill() }
    let socket = try Self.socket(of: receiver)
    let program = block.lines.joined(separator: "\n")
    #expect(program.contains(#""/run/mockgps/dev-ttyMOCKGPS.sock""#))
    let python = try TestProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        // In a Python string literal the `\x2d` of an escaped name must keep its backslash.
        program.replacing(
          "/run/mockgps/dev-ttyMOCKGPS.sock", with: socket.replacing("\\", with: "\\\\")),
      ])
    defer { python.kill() }
    #expect(python.exitStatus(within: 20) == 0, "\(python.standardError)")
    let moved = try Self.status(socket) { Self.atTheTower($0) }
    #expect(Self.atTheTower(moved), "\(moved)")
  }
}
