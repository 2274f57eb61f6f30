import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import TestFixtures
import Testing

/// A root daemon acts for a control client only with that client's rights: the route file a
/// client names is opened as the client, and one it may not read is refused with the words of
/// a missing one. The client runs as `nobody` (setpriv), so the suite needs root.
@Suite(
  .blocking,
  .serialized, .timeLimit(.minutes(10)),
  .enabled(if: geteuid() == 0, "runs a client as another user"))
struct ControlPeerRightsTests {
  @Test func aRouteFileIsOpenedWithTheRightsOfTheClient() throws {
    let running = try ControlledEmulator(groupName: "nogroup")
    defer { running.stop() }
    chmod(running.directory, 0o755)
    let secret = running.directory + "/secret.csv"
    let readable = running.directory + "/readable.csv"
    for (path, mode) in [(secret, mode_t(0o600)), (readable, mode_t(0o644))] {
      #expect(
        FileManager.default.createFile(
          atPath: path, contents: Data("lat,lon\n46.05,14.5\n46.06,14.51\n".utf8)))
      chmod(path, mode)
    }
    let missing = running.directory + "/missing.csv"
    func refusal(_ path: String) -> String {
      #"{"ok":false,"error":"route: cannot read '\#(path)': "#
        + #"no such file, or not readable by the requester"}"#
    }
    #expect(try request(#"{"cmd":"route","file":"\#(secret)"}"#, at: running) == refusal(secret))
    #expect(try request(#"{"cmd":"route","file":"\#(missing)"}"#, at: running) == refusal(missing))
    #expect(try request(#"{"cmd":"route","file":"\#(readable)"}"#, at: running) == #"{"ok":true}"#)
    #expect(
      try request(#"{"cmd":"route","file":"secret.csv"}"#, at: running).contains(
        "is a relative path"))
    // The owner of the file (root, in this process) may load it.
    let owner = try ControlTestClient(path: running.controlPath)
    #expect(try owner.request(#"{"cmd":"route","file":"\#(secret)"}"#) == #"{"ok":true}"#)
  }

  /// /proc's magic links are this process's own: through them a thread with the client's
  /// rights would reach a file below a folder the client may not enter.
  @Test func aMagicLinkOfProcDoesNotReachPastAPrivateFolder() throws {
    let running = try ControlledEmulator(groupName: "nogroup")
    defer { running.stop() }
    chmod(running.directory, 0o755)
    let shut = running.directory + "/shut"
    let inside = shut + "/inside"
    try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
    chmod(shut, 0o700)
    chmod(inside, 0o755)
    let route = inside + "/route.csv"
    #expect(
      FileManager.default.createFile(
        atPath: route, contents: Data("lat,lon\n46.05,14.5\n46.06,14.51\n".utf8)))
    chmod(route, 0o644)
    // A descriptor of the inner folder, held by this process (the emulator's).
    let folder = open(inside, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    #expect(folder >= 0)
    defer { close(folder) }
    let direct = try request(#"{"cmd":"route","file":"\#(route)"}"#, at: running)
    #expect(direct.contains("not readable by the requester"), "\(direct)")
    for path in ["/proc/self/fd/\(folder)/route.csv", "/proc/\(getpid())/fd/\(folder)/route.csv"] {
      let reply = try request(#"{"cmd":"route","file":"\#(path)"}"#, at: running)
      #expect(reply.contains("not readable by the requester"), "\(path): \(reply)")
    }
  }

  /// A thread with the client's rights is still this process, which may read its own /proc
  /// entries (`maps`, `stat`) that the client may not: procfs is refused, as a missing file
  /// is, for the client and for root alike.
  @Test func theDaemonsOwnProcEntriesAreNotOpenedForAClient() throws {
    let running = try ControlledEmulator(groupName: "nogroup")
    defer { running.stop() }
    for path in ["/proc/self/maps", "/proc/\(getpid())/stat", "/proc/\(getpid())/maps"] {
      let reply = try request(#"{"cmd":"route","file":"\#(path)"}"#, at: running)
      #expect(reply.contains("not readable by the requester"), "\(path): \(reply)")
    }
    let owner = try ControlTestClient(path: running.controlPath)
    let reply = try owner.request(#"{"cmd":"route","file":"/proc/self/maps"}"#)
    #expect(reply?.contains("not readable by the requester") == true, "\(reply ?? "no reply")")
  }

  /// The reply to one request line sent by a client running as nobody:nogroup.
  private func request(_ line: String, at running: ControlledEmulator) throws -> String {
    let client = try ChildProcess.run(
      "/usr/bin/setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
        """
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        s.connect(sys.argv[1])
        s.sendall(sys.argv[2].encode() + b"\\n")
        reply = b""
        while not reply.endswith(b"\\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
        sys.stdout.write(reply.decode())
        """,
        running.controlPath, line,
      ])
    return client.outputText.trimmingCharacters(in: .newlines)
  }
}
