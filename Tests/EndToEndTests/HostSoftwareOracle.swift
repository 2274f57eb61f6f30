import Foundation
import MockGPSTestSupport
import TestFixtures

/// The host-software oracles of `Tests/Tools` (the autopilot replays, the ubxtool runner,
/// gpsd's drivers) run against a mockgps started for one profile at one baud.
struct HostSoftwareOracle {
  /// True when python3 with pyubx2 and gpsd's tools are installed, or they are required.
  static let runnable =
    (findExecutable("python3") != nil && findExecutable("ubxtool") != nil
      && findExecutable("gpsctl") != nil) || GpsdSession.required

  /// What a tool printed and its exit status.
  struct Run {
    let status: Int32?
    let output: String
    var passed: Bool { status == 0 }
  }

  let directory: ScratchDirectory
  let emulator: TestProcess
  /// The device link the tools open.
  let device: String

  /// Starts mockgps with `profile` at `baud` on a fresh link.
  init(profile: String, baud: Int, name: String) throws {
    directory = try ScratchDirectory(name)
    device = directory.path + "/ttyMOCKGPS"
    (emulator, _) = try MockGPSBinary.start([
      "--link", device, "--profile", profile, "--baud", String(baud), "-v",
    ])
  }

  /// Ends mockgps and removes the link's folder.
  func stop() {
    emulator.kill()
    directory.remove()
  }

  /// Runs `python3 Tests/Tools/<tool> ARGUMENTS`, bounded by `seconds`; a tool still running
  /// then is killed and has no status.
  func run(_ tool: String, _ arguments: [String], seconds: Double) throws -> Run {
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/\(tool)").path
    // The python3 on PATH, as PythonTool runs it: the one with pyubx2 installed.
    let process = try TestProcess("/usr/bin/env", ["python3", script] + arguments)
    defer { process.kill() }
    let status = process.exitStatus(within: seconds)
    return Run(status: status, output: process.standardOutput + process.standardError)
  }

  /// The last line of `output` parsed as a JSON object of strings (the ubxtool runner's
  /// verdicts), or empty.
  static func verdicts(_ output: String) -> [String: String] {
    guard let last = output.split(whereSeparator: \.isNewline).last,
      let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: String]
    else { return [:] }
    return object
  }
}
