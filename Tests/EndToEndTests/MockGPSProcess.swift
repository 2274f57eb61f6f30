import Foundation
import Glibc
import MockGPSTestSupport
import Synchronization
import TestFixtures

/// Bytes a pipe delivered, collected from Foundation's reading thread.
final class CollectedOutput: Sendable {
  private let data = Mutex(Data())
  private let ended = Atomic<Bool>(false)
  func append(_ more: Data) { data.withLock { $0.append(more) } }
  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
  /// Notes that the writer closed the pipe: everything it wrote is in `text`.
  func end() { ended.store(true, ordering: .releasing) }
  /// True once the writer has closed the pipe.
  var isComplete: Bool { ended.load(ordering: .acquiring) }
}

/// A process started by a test, always ended when the test is done.
///
/// Spawned by `ChildProcess.spawn`: an empty signal mask (Foundation's `Process` spawns from a
/// worker thread that blocks most signals: a gpsd that cannot be stopped with SIGTERM, a
/// `timeout` whose SIGALRM never arrives), and no descriptor but its standard streams (the
/// runner's other threads hold pipes and sockets that are not close-on-exec: a child that
/// inherited them had fewer descriptors under its limit than its test counted on, and kept other
/// children's pipes from reaching their end).
final class TestProcess {
  let pid: pid_t
  private let collectedOutput = CollectedOutput()
  private let collectedErrors = CollectedOutput()
  private var status: Int32?

  /// Starts `executable`; with `closedStandardStreams`, its descriptors 0, 1 and 2 are closed,
  /// as some supervisors start programs.
  init(_ executable: String, _ arguments: [String], closedStandardStreams: Bool = false) throws {
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else { throw TestFailure("pipe failed") }
    // Close-on-exec, so that no other child started meanwhile holds them open (the spawn makes
    // the child's copies without the flag).
    for fd in outputPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let child: pid_t
    do {
      child = try ChildProcess.spawn(
        executable, arguments,
        streams: closedStandardStreams
          ? .closed : .descriptors(input: nil, output: outputPipe[1], errors: errorPipe[1]))
    } catch {
      for fd in outputPipe + errorPipe { close(fd) }
      throw TestFailure("\(error)")
    }
    close(outputPipe[1])
    close(errorPipe[1])
    pid = child
    Self.drain(outputPipe[0], into: collectedOutput)
    Self.drain(errorPipe[0], into: collectedErrors)
  }

  deinit { kill() }

  /// Reads a pipe on its own thread until the writer closes it.
  private static func drain(_ fd: Int32, into collected: CollectedOutput) {
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        collected.append(Data(buffer.prefix(count)))
      }
      close(fd)
      collected.end()
    }.start()
  }

  var standardOutput: String { collectedOutput.text }
  var standardError: String { collectedErrors.text }

  /// True until the process has been reaped.
  var isRunning: Bool {
    if status != nil { return false }
    var raw: Int32 = 0
    let result = waitpid(pid, &raw, WNOHANG)
    guard result == pid else { return result == 0 }
    // WIFEXITED: the low 7 bits are 0; then the status is the next byte. A signal gives 128+N.
    status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    return false
  }

  /// Waits until `condition` holds or `seconds` pass; returns whether it held.
  @discardableResult
  func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 10_000, condition)
  }

  /// Sends a signal.
  func signal(_ number: Int32) {
    if isRunning { Glibc.kill(pid, number) }
  }

  /// Waits up to `seconds` for the process to end; returns its exit status, or nil.
  func exitStatus(within seconds: Double) -> Int32? {
    wait(seconds: seconds) { !isRunning }
    guard !isRunning else { return nil }
    // Its output is whole once both pipes are closed: a fixed pause lost a loaded run's stderr.
    // A child it left behind may hold them open: not past a few seconds.
    wait(seconds: 5) { collectedOutput.isComplete && collectedErrors.isComplete }
    return status
  }

  /// Ends the process if it still runs.
  func kill() {
    guard isRunning else { return }
    Glibc.kill(pid, SIGTERM)
    if exitStatus(within: 3) == nil {
      Glibc.kill(pid, SIGKILL)
      _ = exitStatus(within: 3)
    }
  }
}

/// The mockgps binary built beside the tests, and helpers to run it.
enum MockGPSBinary {
  static var path: String {
    if let override = ProcessInfo.processInfo.environment["MOCKGPS_BINARY"] { return override }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("mockgps").path
  }

  /// The binary where another user (`setpriv --reuid`) may run it: `path` when every folder
  /// above it lets others through, else a copy made once in a folder of this process's own
  /// (`mkdtemp`), removed when the process exits. A clone in a 0700 folder (`/root`,
  /// `mktemp -d`) gave "Permission denied" and exit 126 to every test that runs the binary as
  /// another user.
  static let pathForOtherUsers: String = {
    let original = path
    var folder = URL(fileURLWithPath: original).deletingLastPathComponent()
    var othersPass = true
    while folder.path != "/" {
      var status = stat()
      if stat(folder.path, &status) != 0 || status.st_mode & S_IXOTH == 0 { othersPass = false }
      folder.deleteLastPathComponent()
    }
    guard !othersPass else { return original }
    // A fresh folder of this process's own (mkdtemp: nothing of another user's is ever
    // removed or reused), opened to others once the copy is in.
    var template = Array("/tmp/mockgps-binary-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return original }
    let copyFolder = String(cString: made)
    let copy = copyFolder + "/mockgps"
    do {
      try FileManager.default.copyItem(atPath: original, toPath: copy)
    } catch {
      rmdir(copyFolder)
      return original  // the tests that need it say why they failed
    }
    chmod(copy, 0o755)
    chmod(copyFolder, 0o755)
    copiedBinaryFolder = strdup(copyFolder)
    atexit {
      guard let folder = MockGPSBinary.copiedBinaryFolder else { return }
      let path = String(cString: folder)
      unlink(path + "/mockgps")
      rmdir(path)
    }
    return copy
  }()
  nonisolated(unsafe) private static var copiedBinaryFolder: UnsafeMutablePointer<CChar>?

  /// Starts `mockgps run` and waits for its ready line; returns the process and the slave path.
  static func start(_ arguments: [String]) throws -> (TestProcess, String) {
    let process = try TestProcess(path, ["run"] + arguments)
    let ready = process.wait(seconds: 10) { process.standardOutput.contains("\n") }
    guard ready,
      let slave = process.standardOutput.split(separator: " ").first(where: {
        $0.hasPrefix("/dev/pts/")
      })
    else {
      process.kill()
      throw TestFailure("mockgps did not start: \(process.standardError)")
    }
    return (process, String(slave))
  }

  /// The epochs a stopped `mockgps run` counted late, or cut short because they fell behind
  /// their pacing, in its closing line (0 without one): the timing faults, not the bursts cut
  /// by a client leaving midway (gpsd closing the device) or by the stop.
  static func epochsLateOrCut(_ standardError: String) -> Int {
    func count(_ pattern: String) -> Int {
      guard let regex = try? Regex<(Substring, Substring)>(pattern),
        let match = standardError.firstMatch(of: regex)
      else { return 0 }
      return Int(match.1) ?? 0
    }
    return count(#"(\d+) late"#) + count(#"(\d+) of them behind their pacing"#)
  }

  /// Writes a `--config` file of `devices` (each a JSON object's text) in `directory`, starts
  /// `mockgps run --config` on it and waits up to `seconds` for one ready line a device (or
  /// the process's end).
  static func startFleet(_ devices: [String], in directory: ScratchDirectory, seconds: Double)
    throws -> TestProcess
  {
    let file = directory.path + "/fleet.json"
    try "{\"devices\": [\n\(devices.joined(separator: ",\n"))\n]}".write(
      toFile: file, atomically: true, encoding: .utf8)
    let process = try TestProcess(path, ["run", "--config", file])
    _ = process.wait(seconds: seconds) {
      !process.isRunning || process.standardOutput.split(separator: "\n").count == devices.count
    }
    return process
  }

  /// Runs mockgps to completion and returns status, stdout and stderr.
  static func run(_ arguments: [String], seconds: Double = 10) throws -> (Int32?, String, String) {
    let process = try TestProcess(path, arguments)
    let status = process.exitStatus(within: seconds)
    return (status, process.standardOutput, process.standardError)
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A fresh folder under /tmp, removed by `remove()`.
struct ScratchDirectory {
  let path: String

  init(_ name: String) throws {
    path = "/tmp/mockgps-\(name)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o755)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Finds a program in the usual folders.
func findExecutable(_ name: String) -> String? {
  ["/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/bin"].map { "\($0)/\(name)" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}
