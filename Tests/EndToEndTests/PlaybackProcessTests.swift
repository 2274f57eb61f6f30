import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// `mockgps check` and `mockgps run` with route and scenario files, as processes.
@Suite(.blocking, .serialized) struct PlaybackProcessTests {
  static func fixture(_ path: String) -> String {
    Fixtures.repositoryFixturesDirectory.appendingPathComponent(path).path
  }

  @Test(arguments: [
    (
      "routes/garmin-activity.gpx",
      "track 'casual stroll', 988 points, 12.818 km, 2017-07-29T14:46:35Z to"
    ),
    ("routes/route.gpx", "route"),
    ("routes/sample-gx-track.kml", "track"),
    ("scenarios/tunnel.json", "scenario from 2024-07-01T12:00:00"),
  ])
  func checkSaysWhatAValidFileHoldsAndExitsZero(path: String, summary: String) throws {
    let file = Self.fixture(path)
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 0, "\(errors)")
    #expect(output.hasPrefix("\(file): \(summary)"), "\(output)")
    #expect(errors == "")
  }

  @Test func checkReportsEveryErrorWithItsLineAndExits65() throws {
    let directory = try ScratchDirectory("check")
    defer { directory.remove() }
    let file = directory.path + "/bad.csv"
    try "lat,lon\n51.5,-0.1\n91,0\n51.6,abc\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 65)
    #expect(output == "")
    let lines = errors.split(separator: "\n")
    #expect(lines.count == 2, "\(errors)")
    #expect(lines.first?.hasPrefix("\(file):3") == true, "\(errors)")
    #expect(lines.last?.hasPrefix("\(file):4") == true, "\(errors)")
  }

  @Test func checkOfAMissingFileExits66() throws {
    let (status, _, errors) = try MockGPSBinary.run(["check", "/nonexistent/route.gpx"])
    #expect(status == 66)
    #expect(errors.hasPrefix("/nonexistent/route.gpx: "), "\(errors)")
  }

  @Test(arguments: [
    (["--route", "/nonexistent/route.gpx"], Int32(66)),
    (["--scenario", "BAD_SCENARIO"], Int32(65)),
  ])
  func runRefusesABadFileBeforeItOpensTheDevice(arguments: [String], expected: Int32) throws {
    let directory = try ScratchDirectory("refuse")
    defer { directory.remove() }
    let scenario = directory.path + "/bad.json"
    try
      #"{"start": {"time": "2024-07-01T12:00:00Z", "position": [46, 14]}, "timeline": [{"at": 0, "do": "teleport"}]}"#
      .write(toFile: scenario, atomically: true, encoding: .utf8)
    let link = directory.path + "/tty"
    let (status, output, errors) = try MockGPSBinary.run(
      ["run", "--link", link] + arguments.map { $0 == "BAD_SCENARIO" ? scenario : $0 })
    #expect(status == expected, "\(errors)")
    #expect(output == "")
    #expect(!errors.isEmpty && !errors.contains("\n\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.json"])
  }

  @Test func aFIFOIsRefusedAtOnceNotWaitedOn() throws {
    let directory = try ScratchDirectory("fifo")
    defer { directory.remove() }
    let fifo = directory.path + "/route.gpx"
    #expect(mkfifo(fifo, 0o600) == 0)
    let (status, _, errors) = try MockGPSBinary.run(["check", fifo], seconds: 5)
    #expect(status == 66, "\(errors)")
    #expect(errors == "\(fifo): is not a regular file; expected a route file\n")
    let (runStatus, _, runErrors) = try MockGPSBinary.run(
      ["run", "--link", directory.path + "/tty", "--scenario", fifo], seconds: 5)
    #expect(runStatus == 66, "\(runErrors)")
  }

  @Test func aScenarioGivenAsARouteIsNamedForWhatItIs() throws {
    let scenario = Self.fixture("scenarios/tunnel.json")
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", "/tmp/mockgps-never", "--route", scenario,
    ])
    #expect(status == 65)
    #expect(errors == "\(scenario): holds a scenario, not a route: use --scenario\n")
  }

  @Test func aStartTimeAfterATracksEndIsAUsageError() throws {
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", "/tmp/mockgps-never", "--route", Self.fixture("routes/sample-gx-track.kml"),
      "--start-time", "2024-01-01T00:00:00Z",
    ])
    #expect(status == 64)
    #expect(
      errors.hasPrefix(
        "mockgps: invalid value '2024-01-01T00:00:00Z' for '--start-time': the track runs from "
          + "2019-11-07T08:44:12Z to"), "\(errors)")
  }

  @Test func aRouteRunOnceEndsTheRunWithStatusZeroAndRemovesTheLink() throws {
    let directory = try ScratchDirectory("once")
    defer { directory.remove() }
    let route = directory.path + "/short.csv"
    // 500 m: a car from rest at 2 m/s² to 13.9 m/s (27 knots) and back to rest needs about
    // 43 s; at ten times the speed, about 4 wall seconds.
    try "lat,lon\n51.4779,-0.0015\n51.4824,-0.0015\n".write(
      toFile: route, atomically: true, encoding: .utf8)
    let link = directory.path + "/tty"
    let (process, _) = try MockGPSBinary.start([
      "--link", link, "--route", route, "--once", "--time-scale", "10", "--baud", "0",
    ])
    defer { process.kill() }
    let reader = try DeviceReader(path: link)
    let lines = reader.readLines(1000, timeoutSeconds: 10).map(\.text)
    #expect(process.exitStatus(within: 15) == 0, "\(process.standardError)")
    #expect(process.standardError.contains("the source has ended"), "\(process.standardError)")
    #expect(!FileManager.default.fileExists(atPath: link))
    // It moved at the cruising speed, and stopped at the end.
    let speeds = lines.filter { $0.hasPrefix("$GPRMC") }.compactMap {
      Double($0.split(separator: ",", omittingEmptySubsequences: false)[7])
    }
    #expect(speeds.contains { abs($0 - 27.019) < 0.01 }, "\(speeds)")
    #expect(speeds.last == 0, "\(speeds)")
  }

  @Test func aTrackStartedNowReportsTodaysTime() throws {
    let directory = try ScratchDirectory("now")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    let (process, _) = try MockGPSBinary.start([
      "--link", link, "--route", Self.fixture("routes/sample-gx-track.kml"), "--time", "now",
      "--baud", "0",
    ])
    defer { process.kill() }
    let reader = try DeviceReader(path: link)
    let zda = try #require(
      reader.readLines(20, timeoutSeconds: 5).map(\.text).first { $0.hasPrefix("$GPZDA") })
    let fields = zda.split(separator: ",")
    var now = time(nil)
    var civil = tm()
    gmtime_r(&now, &civil)
    #expect(Int(fields[4]) == Int(civil.tm_year) + 1900, "\(zda)")
  }
}
