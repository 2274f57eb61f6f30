import Foundation
import MockGPSTestSupport
import TestFixtures
import Testing

/// A fleet spread over hosts: `--shard K/N` runs every N-th device of one `--config`, and two
/// processes given the same devices, seed and start time send the same epochs, so that a host
/// can be replaced or a run repeated.
@Suite(.blocking) struct FleetProcessTests {
  /// A config file of `count` devices in `directory`, their links under `linkDirectory`.
  static func writeConfig(
    _ directory: ScratchDirectory, name: String, count: Int, linkDirectory: String,
    extra: String = ""
  ) throws -> String {
    let devices = (0..<count).map { index in
      "{\"link\": \"\(linkDirectory)/gps\(index)\", \"position\": [\(40 + index % 40), \(index % 180)],"
        + " \"baud\": 0\(extra)}"
    }
    let file = "\(directory.path)/\(name).json"
    try "{\"devices\": [\n\(devices.joined(separator: ",\n"))\n]}".write(
      toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test(.timeLimit(.minutes(10)))
  func aShardRunsEveryNthDeviceOfTheFile() throws {
    let directory = try ScratchDirectory("fleet-shard")
    defer { directory.remove() }
    let file = try Self.writeConfig(
      directory, name: "fleet", count: 5, linkDirectory: directory.path)
    let process = try TestProcess(MockGPSBinary.path, ["run", "--config", file, "--shard", "2/2"])
    defer { process.kill() }
    _ = process.wait(seconds: 60) {
      !process.isRunning || process.standardOutput.split(separator: "\n").count == 2
    }
    #expect(process.standardOutput.split(separator: "\n").count == 2, "\(process.standardError)")
    let present = (0..<5).filter {
      FileManager.default.fileExists(atPath: "\(directory.path)/gps\($0)")
    }
    #expect(present == [1, 3])
    // Logged through the log's writer thread, on another pipe than the ready lines.
    let shard = "shard 2/2: 2 of the 5 devices of \(file)"
    #expect(
      process.wait(seconds: 10) { process.standardError.contains(shard) },
      "\(process.standardError)")
    // Each runs its own device of the file: the second device's position, 41° N.
    let reader = try DeviceReader(path: "\(directory.path)/gps1")
    let gga = reader.readUntil(type: "GGA", timeoutSeconds: 10)
    #expect(gga?.text.contains(",4100.00000,N,00100.00000,E,") == true, "\(gga?.text ?? "nothing")")
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 30) == 0, "\(process.standardError.suffix(2000))")
  }

  @Test(.timeLimit(.minutes(10)))
  func aShardWithoutDevicesIsAUsageError() throws {
    let directory = try ScratchDirectory("fleet-empty-shard")
    defer { directory.remove() }
    let file = try Self.writeConfig(
      directory, name: "fleet", count: 2, linkDirectory: directory.path)
    let (status, _, error) = try MockGPSBinary.run(["run", "--config", file, "--shard", "3/4"])
    #expect(status == 64)
    #expect(
      error == "mockgps: --shard 3/4: \(file) has 2 device(s), none of them this shard's\n")
  }

  /// The sentences of each epoch a reader received, by the time of its RMC.
  static func epochs(_ lines: [DeviceReader.TimedLine]) -> [String: [String]] {
    var epochs: [String: [String]] = [:]
    var current: String?
    for line in lines {
      if line.text.dropFirst(3).hasPrefix("RMC") {
        current = String(line.text.split(separator: ",", omittingEmptySubsequences: false)[1])
      }
      if let current { epochs[current, default: []].append(line.text) }
    }
    return epochs
  }

  /// The epochs of every device of a process, read for a few seconds.
  static func capture(config: String, links: [String]) throws -> [[String: [String]]] {
    let process = try TestProcess(MockGPSBinary.path, ["run", "--config", config, "--quiet"])
    defer { process.kill() }
    _ = process.wait(seconds: 60) {
      !process.isRunning || links.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }
    let readers = try links.map { try DeviceReader(path: $0) }
    // Six epochs at 1 Hz: whole ones are those after the first RMC.
    let deadline = DeviceReader.monotonicNanoseconds() + 6_500_000_000
    var lines = Array(repeating: [DeviceReader.TimedLine](), count: links.count)
    while DeviceReader.monotonicNanoseconds() < deadline {
      for (index, reader) in readers.enumerated() {
        lines[index] += reader.readLines(1000, timeoutSeconds: 0.05)
      }
    }
    process.signal(SIGTERM)
    _ = process.exitStatus(within: 30)
    return lines.map { epochs(Array($0.drop { !$0.text.dropFirst(3).hasPrefix("RMC") })) }
  }

  @Test(.timeLimit(.minutes(10)))
  func twoProcessesGivenTheSameDevicesSeedAndStartTimeSendTheSameEpochs() throws {
    let directory = try ScratchDirectory("fleet-identical")
    defer { directory.remove() }
    let extra = ", \"seed\": 7, \"start-time\": \"2026-03-01T12:00:00Z\", \"profile\": \"ublox-m8\""
    // The same file but for where the links go: both run on this one host.
    var captures: [[[String: [String]]]] = []
    for host in ["a", "b"] {
      let links = "\(directory.path)/\(host)"
      try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
      let file = try Self.writeConfig(
        directory, name: host, count: 2, linkDirectory: links, extra: extra)
      captures.append(try Self.capture(config: file, links: ["\(links)/gps0", "\(links)/gps1"]))
    }
    for device in 0..<2 {
      let (a, b) = (captures[0][device], captures[1][device])
      let common = Set(a.keys).intersection(b.keys).sorted()
      #expect(
        common.count >= 3, "device \(device): epochs \(a.keys.sorted()) and \(b.keys.sorted())")
      // The last epoch read may be cut short.
      for time in common.dropLast() {
        #expect(a[time] == b[time], "device \(device) at \(time)")
      }
    }
    // The devices themselves differ (their positions): the comparison tells streams apart.
    let shared = Set(captures[0][0].keys).intersection(captures[0][1].keys).sorted().first
    #expect(shared.map { captures[0][0][$0] != captures[0][1][$0] } == true)
  }
}

/// A run of many devices takes the descriptors it needs up to the hard limit, and says what it
/// needs when even that is not enough.
@Suite(.blocking) struct OpenFilesLimitProcessTests {
  @Test(.enabled(if: findExecutable("prlimit") != nil), .timeLimit(.minutes(10)))
  func aRunRaisesItsSoftLimitToTheHardOne() throws {
    let directory = try ScratchDirectory("fleet-limit")
    defer { directory.remove() }
    // 300 devices need more than a soft limit of 256 allows, less than a hard one of 1024.
    let file = try FleetProcessTests.writeConfig(
      directory, name: "fleet", count: 300, linkDirectory: directory.path)
    let process = try TestProcess(
      findExecutable("prlimit") ?? "prlimit",
      ["--nofile=256:1024", MockGPSBinary.path, "run", "--config", file])
    defer { process.kill() }
    _ = process.wait(seconds: 120) {
      !process.isRunning || process.standardOutput.split(separator: "\n").count == 300
    }
    #expect(
      process.standardOutput.split(separator: "\n").count == 300,
      "\(process.standardError.suffix(2000))")
    let limits = (try? String(contentsOfFile: "/proc/\(process.pid)/limits", encoding: .utf8)) ?? ""
    #expect(
      limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }?
        .split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2)
        .map(String.init) == ["1024", "1024"], "\(limits)")
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 60) == 0, "\(process.standardError.suffix(2000))")
  }

  @Test(.enabled(if: findExecutable("prlimit") != nil), .timeLimit(.minutes(10)))
  func aHardLimitTooLowIsRefusedBeforeAnythingOpens() throws {
    let directory = try ScratchDirectory("fleet-limit-low")
    defer { directory.remove() }
    let file = try FleetProcessTests.writeConfig(
      directory, name: "fleet", count: 300, linkDirectory: directory.path)
    let process = try TestProcess(
      findExecutable("prlimit") ?? "prlimit",
      ["--nofile=256:256", MockGPSBinary.path, "run", "--config", file])
    defer { process.kill() }
    #expect(process.exitStatus(within: 30) == 1)
    let error = process.standardError
    // Each device: its pseudo-terminal's master and the slave it holds for clients, and its
    // control socket.
    #expect(
      error
        == "mockgps: 300 devices need at least 964 open files (two for a pseudo-terminal, one for "
        + "each socket), and this process may open 256: raise the hard limit ('ulimit -Hn', or "
        + "LimitNOFILE= in a unit), or spread the devices with --shard\n")
    #expect(
      (0..<300).allSatisfy { !FileManager.default.fileExists(atPath: "\(directory.path)/gps\($0)") }
    )
  }
}
