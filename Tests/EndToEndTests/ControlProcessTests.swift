import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps run` with a control socket and `mockgps ctl` against it, through the built binary.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ControlProcessTests {
  @Test func ctlTalksToARunningMockgpsWithItsExitCodes() throws {
    let scratch = try ScratchDirectory("ctl")
    defer { scratch.remove() }
    let link = scratch.path + "/tty"
    let socket = scratch.path + "/control.sock"
    let (process, _) = try MockGPSBinary.start(["--link", link, "--control", socket, "--rate", "5"])
    defer { process.kill() }
    #expect(
      process.wait(seconds: 5) { process.standardError.contains("control socket: \(socket)") })

    let (okStatus, okOutput, _) = try MockGPSBinary.run([
      "ctl", "--control", socket, "position", "48.85,2.35",
    ])
    #expect(okStatus == 0)
    #expect(okOutput == "ok\n")

    let (statusStatus, statusOutput, _) = try MockGPSBinary.run([
      "ctl", "--control", socket, "status",
    ])
    #expect(statusStatus == 0)
    let lines = statusOutput.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("link ") && $0.hasSuffix(" " + link) }, "\(statusOutput)")
    // Aligned: every value starts in the same column.
    let columns = Set(
      lines.map { line in
        line.distance(from: line.startIndex, to: line.firstIndex(of: " ")!)
          + line.drop(while: { $0 != " " }).prefix(while: { $0 == " " }).count
      })
    #expect(columns.count == 1, "\(statusOutput)")

    let (jsonStatus, jsonOutput, _) = try MockGPSBinary.run([
      "ctl", "--control", socket, "--json", "fix", "none",
    ])
    #expect(jsonStatus == 0)
    #expect(jsonOutput == #"{"ok":true}"# + "\n")

    let (refusedStatus, refusedOutput, refusedError) = try MockGPSBinary.run([
      "ctl", "--control", socket, "rate", "99",
    ])
    #expect(refusedStatus == 1)
    #expect(refusedOutput.isEmpty)
    #expect(refusedError.hasPrefix("mockgps ctl: "), "\(refusedError)")

    let (usageStatus, _, usageError) = try MockGPSBinary.run([
      "ctl", "--control", socket, "position", "x", "2",
    ])
    #expect(usageStatus == 64)
    #expect(usageError.contains("'x'"))

    let (subscribeStatus, subscribeOutput, _) = try MockGPSBinary.run([
      "ctl", "--control", socket, "subscribe", "--count", "2",
    ])
    #expect(subscribeStatus == 0)
    let fixes = subscribeOutput.split(separator: "\n")
    #expect(
      fixes.count == 3 && fixes.dropFirst().allSatisfy { $0.contains(#""lat":48.85"#) },
      "\(subscribeOutput)")

    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0)
    #expect(access(socket, F_OK) != 0, "the socket is removed on exit")

    let (goneStatus, _, goneError) = try MockGPSBinary.run(["ctl", "--control", socket, "status"])
    #expect(goneStatus == 69)
    #expect(goneError.contains(socket) && goneError.contains("--link"))
  }

  @Test func aLiveSocketIsRefusedWithExitOneAndTheLinkRemoved() throws {
    let scratch = try ScratchDirectory("ctl-live")
    defer { scratch.remove() }
    let socket = scratch.path + "/control.sock"
    let (first, _) = try MockGPSBinary.start(["--link", scratch.path + "/a", "--control", socket])
    defer { first.kill() }
    let (status, _, error) = try MockGPSBinary.run([
      "--link", scratch.path + "/b", "--control", socket,
    ])
    #expect(status == 1)
    #expect(error.contains(socket), "\(error)")
    #expect(access(scratch.path + "/b", F_OK) != 0, "the second link is removed")
    let (ctlStatus, _, _) = try MockGPSBinary.run([
      "ctl", "--link", scratch.path + "/a", "--control", socket, "status",
    ])
    #expect(ctlStatus == 64, "--link and --control exclude each other")
    let (stillStatus, _, _) = try MockGPSBinary.run(["ctl", "--control", socket, "status"])
    #expect(stillStatus == 0)
  }

  /// A root daemon with `--control-group` has its socket in `/run/mockgps`; a user of the group
  /// whose own default folder is elsewhere (`/tmp/mockgps-UID`) finds it with `--link` alone.
  @Test(.enabled(if: getuid() == 0, "runs ctl as nobody, which needs root to arrange"))
  func aUserOfTheControlGroupFindsTheRootDaemonsSocketByItsLink() throws {
    let setpriv = try #require(findExecutable("setpriv"))
    let directory = try ScratchDirectory("ctl-group")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    let daemon = try TestProcess(
      "/usr/bin/env",
      [
        "-u", "XDG_RUNTIME_DIR", MockGPSBinary.path, "run", "--link", link, "--control-group",
        "dialout",
      ])
    defer { daemon.kill() }
    // Named as `systemd-escape --path` names the link.
    let escaped = String(link.dropFirst()).replacingOccurrences(of: "-", with: "\\x2d")
      .replacingOccurrences(of: "/", with: "-")
    let socket = "/run/mockgps/\(escaped).sock"
    #expect(daemon.wait(seconds: 10) { FileManager.default.fileExists(atPath: socket) })
    func ctl(groups: String) throws -> TestProcess {
      try TestProcess(
        setpriv,
        [
          "--reuid=nobody", "--regid=nogroup", groups, "/usr/bin/env", "-u", "XDG_RUNTIME_DIR",
          MockGPSBinary.pathForOtherUsers, "ctl", "--link", link, "status",
        ])
    }
    let member = try ctl(groups: "--groups=dialout")
    #expect(member.exitStatus(within: 10) == 0, "\(member.standardError)")
    #expect(member.standardOutput.contains(link), "\(member.standardOutput)")
    // Without the group the folder is closed to it: the refusal names the socket it found.
    let stranger = try ctl(groups: "--clear-groups")
    #expect(stranger.exitStatus(within: 10) == 69)
    #expect(stranger.standardError.contains(socket), "\(stranger.standardError)")
  }

  /// `ctl` without `--control` sends only to a socket a mockgps of the caller's user or root
  /// listens on: anyone may make `/tmp/mockgps-UID` before its user does and listen there, and
  /// a request may name a file. Found in review: such a listener got `route`'s path and its
  /// `{"ok":true}` was printed as `ok`.
  @Test(.enabled(if: getuid() == 0, "runs ctl and a listener as two users"))
  func ctlRefusesADefaultSocketAnotherUserListensOn() throws {
    let setpriv = try #require(findExecutable("setpriv"))
    let folder = "/tmp/mockgps-2"  // the default folder of `bin` (uid 2)
    let link = "/tmp/mockgps-impostor-\(getpid())"
    let socket =
      folder + "/"
      + String(link.dropFirst()).replacingOccurrences(of: "-", with: "\\x2d")
      .replacingOccurrences(of: "/", with: "-") + ".sock"
    try? FileManager.default.removeItem(atPath: folder)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let listener = """
      import os, socket, sys
      os.makedirs(sys.argv[1], exist_ok=True); os.chmod(sys.argv[1], 0o755)
      s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[2]); os.chmod(sys.argv[2], 0o777)
      s.listen(1); print("listening", flush=True); s.settimeout(10)
      c, _ = s.accept(); c.settimeout(2); print(c.recv(4096).decode(), flush=True)
      c.sendall(b'{"ok":true}\\n')
      """
    let impostor = try TestProcess(
      setpriv,
      [
        "--reuid=daemon", "--regid=daemon", "--clear-groups", "/usr/bin/python3", "-c", listener,
        folder, socket,
      ])
    defer { impostor.kill() }
    #expect(impostor.wait(seconds: 10) { impostor.standardOutput.contains("listening") })
    let ctl = try TestProcess(
      setpriv,
      [
        "--reuid=bin", "--regid=bin", "--clear-groups", "/usr/bin/env", "-u", "XDG_RUNTIME_DIR",
        MockGPSBinary.pathForOtherUsers, "ctl", "--link", link, "route", "/tmp/secret-plan.gpx",
      ])
    #expect(ctl.exitStatus(within: 10) == 69)
    #expect(
      ctl.standardError.contains("is served by uid 1, neither you nor root"), "\(ctl.standardError)"
    )
    #expect(!ctl.standardOutput.contains("ok"))
    #expect(!impostor.standardOutput.contains("secret-plan"), "the request reached the impostor")
  }
}
