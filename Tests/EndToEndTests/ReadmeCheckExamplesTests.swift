import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The README's `mockgps check` and `mockgps record` examples, run as printed in a scratch
/// folder holding files that make the errors shown: the output is the README's, line for line.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ReadmeCheckExamplesTests {
  /// Runs each `$ COMMAND` of `block` in `directory`, and expects the lines printed under it as
  /// its standard error, and `status`.
  static func expectTranscript(_ block: ReadmeBlock, in directory: String, status: Int32) throws {
    var index = 0
    var commands = 0
    while index < block.lines.count {
      let command = try #require(
        block.lines[index].hasPrefix("$ ") ? block.lines[index].dropFirst(2) : nil,
        "\(block): line \(index + 1) is not a command")
      var printed = ""
      index += 1
      while index < block.lines.count, !block.lines[index].hasPrefix("$ ") {
        printed += block.lines[index] + "\n"
        index += 1
      }
      let (exit, output, errors) = try ReadmeBlock.run("cd \(directory) && \(command)")
      #expect(exit == status, "\(command): \(errors)")
      #expect(output == "", "\(command)")
      #expect(errors == printed, "\(command)")
      commands += 1
    }
    #expect(commands >= 2)
  }

  /// The scenario shown is the file it names, byte for byte.
  @Test func theScenarioShownIsTheFixture() throws {
    let block = try ReadmeBlock.containing(#""start": {"time": "2024-07-01T12:00:00Z""#)
    #expect(block.language == "json")
    #expect(
      ReadmeBlock.readme.contains("A\ncomplete example, `Tests/Fixtures/scenarios/tunnel.json`")
        || ReadmeBlock.readme.contains("A complete example, `Tests/Fixtures/scenarios/tunnel.json`")
    )
    let fixture = try String(
      contentsOf: Fixtures.repositoryFixturesDirectory.appendingPathComponent(
        "scenarios/tunnel.json"), encoding: .utf8)
    #expect(block.lines.joined(separator: "\n") + "\n" == fixture)
  }

  /// `mockgps check drive.csv` and `check tunnel.json` print the errors shown, with their lines,
  /// and exit 65: drive.csv with a latitude of 91 on line 3 and a longitude `abc` on line 4,
  /// tunnel.json the README's scenario with the mode of `timeline[3]` spelled `4d`.
  @Test func theCheckErrorsShownAreChecks() throws {
    let block = try ReadmeBlock.containing("$ mockgps check drive.csv")
    let directory = try ScratchDirectory("readme-check")
    defer { directory.remove() }
    try "lat,lon\n51.5,-0.1\n91.0,-0.1\n51.6,abc\n".write(
      toFile: directory.path + "/drive.csv", atomically: true, encoding: .utf8)
    let scenario = try ReadmeBlock.containing(#""start": {"time": "2024-07-01T12:00:00Z""#)
    let fixIndex = try #require(
      scenario.lines.firstIndex { $0.contains(#"{"at": 70, "do": "fix", "mode": "none""#) })
    var broken = scenario.lines
    broken[fixIndex] = broken[fixIndex].replacing(#""mode": "none""#, with: #""mode": "4d""#)
    try broken.joined(separator: "\n").write(
      toFile: directory.path + "/tunnel.json", atomically: true, encoding: .utf8)
    try Self.expectTranscript(block, in: directory.path, status: 65)
  }

  /// The errors shown for a config of devices, from a config with a rate of 50 on line 7 and a
  /// missing route on line 9: the first error's code, 65.
  @Test func theConfigErrorsShownAreChecks() throws {
    let shown = try ReadmeBlock.containing("fleet.json:7: devices[3] (link /tmp/gps3)")
    let directory = try ScratchDirectory("readme-fleet")
    defer { directory.remove() }
    #expect(!FileManager.default.fileExists(atPath: "/rig/legs/south.gpx"))
    let config = """
      {"devices": [
        {"link": "/tmp/gps0", "position": [51.5, -0.12, 20]},
        {"link": "/tmp/gps1", "position": [51.5, -0.12, 20]},
        {"link": "/tmp/gps2", "position": [51.5, -0.12, 20]},
        {"link": "/tmp/gps3",
         "position": [51.5, -0.12],
         "rate": 50},
        {"link": "/tmp/gps4",
         "route": "/rig/legs/south.gpx"}
      ]}

      """
    try config.write(toFile: directory.path + "/fleet.json", atomically: true, encoding: .utf8)
    let (status, output, errors) = try ReadmeBlock.run(
      "cd \(directory.path) && mockgps check fleet.json")
    #expect(status == 65)
    #expect(output == "")
    #expect(errors == shown.lines.joined(separator: "\n") + "\n")
  }

  /// `mockgps check` of a track and of a log prints the one line of what it holds, as the
  /// text shows for the track, and exits 0.
  @Test func checkOfATrackAndOfALogSaysWhatTheyHold() throws {
    let routes = try ReadmeBlock.containing("mockgps check drive.gpx")
    let track = Fixtures.routesDirectory.appendingPathComponent("garmin-activity.gpx").path
    let shown = "track 'casual stroll', 988 points, 12.818 km, 2017-07-29T14:46:35Z to"
    #expect(ReadmeBlock.readme.replacing("\n", with: " ").contains("(`" + shown + " …`)"))
    let (status, output, _) = try ReadmeBlock.run(
      ReadmeBlock.command(try routes.line(containing: "mockgps check"), [("drive.gpx", track)]))
    #expect(status == 0)
    #expect(output.hasPrefix("\(track): \(shown) 2017-07-29T16:18:13Z\n"), "\(output)")

    let replays = try ReadmeBlock.containing("mockgps check drive.nmea")
    let log = try Fixtures.gpsdLog("bu303-moving.log").path
    let (logStatus, logOutput, logErrors) = try ReadmeBlock.run(
      ReadmeBlock.command(try replays.line(containing: "mockgps check"), [("drive.nmea", log)]))
    #expect(logStatus == 0, "\(logErrors)")
    #expect(logOutput.hasPrefix("\(log): ") && logOutput.hasSuffix("; replayable\n"))
  }

  /// `mockgps record DEVICE --out drive.rec` on the link of a running mockgps writes the format
  /// the text gives (header, then `@SECONDS.NANOSECONDS COUNT`, LF, the bytes, LF), exits 0 on
  /// SIGINT, 73 when the file exists, and `check` finds the recording replayable.
  @Test func theRecordLineRecordsAsTheTextSays() throws {
    let block = try ReadmeBlock.containing("mockgps record /dev/ttyUSB0 --out drive.rec")
    let directory = try ScratchDirectory("readme-record")
    defer { directory.remove() }
    let (receiver, _) = try MockGPSBinary.start([
      "--link", directory.path + "/tty", "--no-control", "--rate", "5", "--baud", "115200",
    ])
    defer { receiver.kill() }
    let line = ReadmeBlock.command(
      try block.line(containing: "mockgps record"), [("/dev/ttyUSB0", directory.path + "/tty")])
    let folder = URL(fileURLWithPath: MockGPSBinary.path).deletingLastPathComponent().path
    let recorder = try TestProcess(
      "/bin/sh", ["-c", "cd \(directory.path) && PATH=\(folder):$PATH exec \(line)"])
    defer { recorder.kill() }
    let file = directory.path + "/drive.rec"
    recorder.wait(seconds: 10) {
      ((try? Data(contentsOf: URL(fileURLWithPath: file)))?.count ?? 0) > 2000
    }
    recorder.signal(SIGINT)
    #expect(recorder.exitStatus(within: 10) == 0, "\(recorder.standardError)")
    #expect(recorder.standardError.contains("(SIGINT)"), "\(recorder.standardError)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    let text = String(decoding: bytes, as: UTF8.self)
    let header = text.split(separator: "\n").prefix(4).map { String($0.prefix(10)) }
    #expect(
      header == ["# mockgps ", "# Device: ", "# Serial: ", "# Start: 2"], "\(text.prefix(300))")
    #expect(text.contains("# Device: \(directory.path)/tty\n# Serial: 115200 8N1\n"))
    // Each record: `@SECONDS.NANOSECONDS COUNT`, LF, COUNT bytes, LF.
    var records = 0
    var rest = bytes[...]
    while let at = rest.firstIndex(of: UInt8(ascii: "@")), rest[at...].count > 1 {
      let end = try #require(rest[at...].firstIndex(of: UInt8(ascii: "\n")))
      let fields = String(decoding: rest[(at + 1)..<end], as: UTF8.self).split(separator: " ")
      #expect(fields.count == 2 && fields[0].wholeMatch(of: /[0-9]+\.[0-9]{9}/) != nil)
      let count = try #require(Int(fields.last ?? ""))
      #expect(end + 1 + count < bytes.count && bytes[end + 1 + count] == UInt8(ascii: "\n"))
      rest = bytes[min(bytes.count, end + 2 + count)...]
      records += 1
      guard rest.first == UInt8(ascii: "@") else { break }
    }
    #expect(records >= 2 && rest.isEmpty, "\(records) records, \(rest.count) bytes left")

    let again = try ReadmeBlock.run("cd \(directory.path) && \(line)")
    #expect(again.0 == 73, "\(again.2)")
    let check = try ReadmeBlock.run("cd \(directory.path) && mockgps check drive.rec")
    #expect(check.0 == 0 && check.1.hasSuffix("; replayable\n"), "\(check)")
  }
}
