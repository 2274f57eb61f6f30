import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps run --config` and `mockgps check` on config files, as processes.
@Suite(.blocking, .serialized) struct ConfigProcessTests {
  /// Three receivers far apart, each on its own link in `directory`.
  static func fleet(in directory: ScratchDirectory) -> String {
    """
    {"devices": [
      {"link": "\(directory.path)/gps0", "position": [51.5, -0.25, 20], "baud": 115200},
      {"link": "\(directory.path)/gps1", "position": [-33.875, 151.25], "baud": 115200},
      {"link": "\(directory.path)/gps2", "position": "40.125,-74.5", "rate": 2, "baud": 115200}
    ]}
    """
  }

  @Test(.timeLimit(.minutes(10)))
  func threeDevicesFromAConfigEachSendTheirOwnPositionAndAllLinksGoOnSIGTERM() throws {
    let directory = try ScratchDirectory("config-run")
    defer { directory.remove() }
    let file = directory.path + "/fleet.json"
    try Self.fleet(in: directory).write(toFile: file, atomically: true, encoding: .utf8)
    let process = try TestProcess(MockGPSBinary.path, ["run", "--config", file])
    defer { process.kill() }
    let links = (0..<3).map { "\(directory.path)/gps\($0)" }
    let started = process.wait(seconds: 20) {
      process.standardOutput.split(separator: "\n").count == 3
    }
    #expect(started, "\(process.standardOutput)\(process.standardError)")
    for link in links {
      #expect(process.standardOutput.contains("mockgps: \(link) -> /dev/pts/"))
    }
    // GGA's latitude and longitude as ddmm.mmmmm, hemisphere letters included.
    let expected = [
      "5130.00000,N,00015.00000,W", "3352.50000,S,15115.00000,E", "4007.50000,N,07430.00000,W",
    ]
    for (link, position) in zip(links, expected) {
      let reader = try DeviceReader(path: link)
      let gga = reader.readUntil(type: "GGA", timeoutSeconds: 10)
      #expect(gga?.text.contains(position) == true, "\(link): \(gga?.text ?? "nothing")")
    }
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 10) == 0, "\(process.standardError)")
    for link in links {
      #expect(!FileManager.default.fileExists(atPath: link), "\(link) left behind")
    }
    #expect(process.standardError.contains("SIGTERM: removing 3 links and stopping"))
    for link in links {
      #expect(process.standardError.contains("mockgps: \(link): sent "), "\(link) has no summary")
    }
  }

  @Test(.timeLimit(.minutes(10))) func aDeviceThatCannotStartStopsTheOthers() throws {
    let directory = try ScratchDirectory("config-fail")
    defer { directory.remove() }
    let file = directory.path + "/fleet.json"
    // The third link is a directory: it cannot become a link, so the first two go as well.
    try FileManager.default.createDirectory(
      atPath: directory.path + "/gps2", withIntermediateDirectories: false)
    try Self.fleet(in: directory).write(toFile: file, atomically: true, encoding: .utf8)
    let (status, output, errors) = try MockGPSBinary.run(["run", "--config", file])
    #expect(status == 1, "\(errors)")
    #expect(output == "")
    #expect(errors.contains("mockgps: devices[2] (link \(directory.path)/gps2): "), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/gps0"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/gps1"))
  }

  @Test func checkSummarisesAGoodConfigAndReportsEveryErrorOfABadOne() throws {
    let directory = try ScratchDirectory("config-check")
    defer { directory.remove() }
    let good = directory.path + "/fleet.json"
    try Self.fleet(in: directory).write(toFile: good, atomically: true, encoding: .utf8)
    var (status, output, errors) = try MockGPSBinary.run(["check", good])
    #expect(status == 0, "\(errors)")
    #expect(
      output == "\(good): config of 3 devices: \(directory.path)/gps0, \(directory.path)/gps1, "
        + "\(directory.path)/gps2\n")
    let bad = directory.path + "/bad.json"
    try """
    {"devices": [
      {"link": "/tmp/a", "rate": 50},
      {"link": "/tmp/a", "colour": "red"}
    ]}
    """.write(toFile: bad, atomically: true, encoding: .utf8)
    (status, output, errors) = try MockGPSBinary.run(["check", bad])
    #expect(status == 65)
    #expect(output == "")
    let lines = errors.split(separator: "\n")
    #expect(lines.count == 3, "\(errors)")
    #expect(
      lines.first
        == "\(bad):2: devices[0] (link /tmp/a): rate: expected a rate in Hz from 0.1 to 20, got 50")
    #expect(
      lines.dropFirst().first?.hasPrefix(
        "\(bad):3: devices[1] (link /tmp/a): colour: unknown key (expected one of link, ") == true)
    #expect(lines.last == "\(bad):3: devices[1] (link /tmp/a): link: the same link as devices[0]")
    (status, _, errors) = try MockGPSBinary.run(["run", "--config", bad])
    #expect(status == 65)
    #expect(errors.split(separator: "\n").count == 3, "\(errors)")
    (status, _, _) = try MockGPSBinary.run(["run", "--config", directory.path + "/missing.json"])
    #expect(status == 66)
  }

  @Test func checkAndRunReadEveryDevicesFilesAndReportEveryError() throws {
    let directory = try ScratchDirectory("config-files")
    defer { directory.remove() }
    try "lat,lon\n51.5,-0.1\nnorth,-0.1\n51.6,east\n".write(
      toFile: directory.path + "/bad.csv", atomically: true, encoding: .utf8)
    let file = directory.path + "/fleet.json"
    try """
    {"devices": [
      {"link": "\(directory.path)/gps0", "route": "legs/north.gpx"},
      {"link": "\(directory.path)/gps1", "route": "bad.csv", "loop": true},
      {"link": "\(directory.path)/gps2", "replay": "drive.nmea"},
      {"link": "\(directory.path)/gps3", "position": [51.5, -0.1], "almanac": "week.alm"},
      {"link": "\(directory.path)/gps4", "rate": 50, "speed": 12}
    ]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    func device(_ index: Int, _ key: String) -> String {
      "\(file):\(index + 2): devices[\(index)] (link \(directory.path)/gps\(index)): \(key): "
    }
    for arguments in [["check", file], ["run", "--config", file]] {
      let (status, output, errors) = try MockGPSBinary.run(arguments)
      // The first error's code: the missing route of the first device.
      #expect(status == 66, "\(arguments): \(errors)")
      #expect(output == "")
      let lines = errors.split(separator: "\n").map(String.init)
      #expect(lines.count == 7, "\(arguments): \(errors)")
      let expected = [
        device(0, "route") + "\(directory.path)/legs/north.gpx: ",
        device(1, "route") + "\(directory.path)/bad.csv:3",
        device(1, "route") + "\(directory.path)/bad.csv:4",
        device(2, "replay") + "\(directory.path)/drive.nmea: ",
        device(3, "almanac") + "\(directory.path)/week.alm: ",
        device(4, "rate") + "expected a rate in Hz from 0.1 to 20, got 50",
        "\(file):6: devices[4] (link \(directory.path)/gps4): option 'speed' needs 'route'",
      ]
      for (line, prefix) in zip(lines, expected) {
        #expect(line.hasPrefix(prefix), "\(arguments): \(line)")
      }
      #expect(!FileManager.default.fileExists(atPath: directory.path + "/gps0"))
    }
  }

  @Test func aFIFOGivenAsConfigIsRefusedAsNoConfigFile() throws {
    let directory = try ScratchDirectory("config-fifo")
    defer { directory.remove() }
    let fifo = directory.path + "/fleet.json"
    #expect(mkfifo(fifo, 0o600) == 0)
    let (status, _, errors) = try MockGPSBinary.run(["run", "--config", fifo])
    #expect(status == 66)
    #expect(errors.contains("is not a regular file; expected a config file"), "\(errors)")
  }

  @Test func checkAcceptsTheScenariosRunAccepts() throws {
    let directory = try ScratchDirectory("check-scenario-kind")
    defer { directory.remove() }
    let scenario = directory.path + "/s.json"
    let comment = String(repeating: "x", count: 70_000)
    // The old test read "start" and "timeline" in the first 64 KiB only: a route then.
    try """
    {"comment": "\(comment)", "start": {"time": "2024-07-01T12:00:00Z", "position": [46.05, 14.5]},
     "timeline": [{"at": 0, "do": "hold"}]}
    """.write(toFile: scenario, atomically: true, encoding: .utf8)
    let (status, output, errors) = try MockGPSBinary.run(["check", scenario])
    #expect(status == 0, "\(errors)")
    #expect(output.hasPrefix("\(scenario): scenario from 2024-07-01T12:00:00Z"), "\(output)")
  }

  @Test func aConfigGivenAsARouteOrAScenarioIsNamedForWhatItIs() throws {
    let directory = try ScratchDirectory("config-kind")
    defer { directory.remove() }
    let file = directory.path + "/fleet.json"
    try Self.fleet(in: directory).write(toFile: file, atomically: true, encoding: .utf8)
    for (option, kind) in [("--route", "a route"), ("--scenario", "a scenario")] {
      let (status, _, errors) = try MockGPSBinary.run(
        ["run", "--link", directory.path + "/gps", option, file])
      #expect(status == 65)
      #expect(errors == "\(file): holds a config of devices, not \(kind): use --config\n")
    }
  }
}
