import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

/// The `mockgps run` lines of the README's code blocks, made runnable here: the link and the
/// control socket in a scratch folder, ports picked free, the files they name replaced by real
/// files of the same kind (a GPX, KML or scenario of `Tests/Fixtures`, gpsd's logs for a
/// replay, another mockgps's link for a receiver to pass through). A line that needs what is not
/// here (a receiver found by `auto`, a config file) is left out.
struct ReadmeRunExample: CustomStringConvertible {
  var line: String
  var arguments: [String]
  var description: String { line }

  static let readme: String =
    (try? String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8))
    ?? ""

  /// Every `mockgps run` line of the README's code blocks, continuation lines joined, comments
  /// dropped.
  static var lines: [String] {
    var lines: [String] = []
    var inBlock = false
    var pending = ""
    for raw in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if raw.hasPrefix("```") {
        inBlock.toggle()
        continue
      }
      guard inBlock else { continue }
      let text = raw.replacing(/\s+#.*$/, with: "")
      if !pending.isEmpty || text.hasPrefix("mockgps run")
        || text.hasPrefix(".build/release/mockgps run")
      {
        pending += text.hasSuffix("\\") ? String(text.dropLast()) : String(text)
        if !text.hasSuffix("\\") {
          lines.append(pending.trimmingCharacters(in: .whitespaces))
          pending = ""
        }
      }
    }
    return lines
  }

  /// The arguments of `line` as they run here, or nil when it needs what is not here;
  /// `receiver` stands for a device passed through.
  static func runnable(_ line: String, link: String, folder: String, receiver: String? = nil)
    -> [String]?
  {
    // The synopsis of Options is no command line.
    guard !line.contains(" [--") else { return nil }
    var words = line.split(separator: " ").map { String($0.replacing("'", with: "")) }
    words.removeFirst(2)  // mockgps run
    var arguments: [String] = []
    var hasLink = false
    var index = 0
    while index < words.count {
      let option = words[index]
      let value = index + 1 < words.count ? words[index + 1] : ""
      index += 1
      switch option {
      case "--link":
        arguments += [option, link]
        hasLink = true
      case "--control":
        arguments += [option, folder + "/control.sock"]
      case "--gpsd-socket":
        arguments += [option, folder + "/gpsd.sock"]
      case "--tcp", "--panel":
        let host = value.hasPrefix("[") ? String(value.prefix { $0 != "]" }) + "]:" : ""
        arguments += [option, host + "0"]
      case "--route", "--scenario", "--replay", "--almanac":
        guard let file = stand(in: value) else { return nil }
        arguments += [option, file]
      case "--passthrough":
        guard let receiver, !value.hasPrefix("auto") else { return nil }
        arguments += [option, receiver]
      case "--config", "--panel-files":
        return nil
      default:
        arguments.append(option)
        continue
      }
      index += 1
    }
    if !hasLink { arguments += ["--link", link] }
    if !arguments.contains("--control") { arguments.append("--no-control") }
    return arguments
  }

  /// A real file of the kind `name` stands for, or nil.
  static func stand(in name: String) -> String? {
    let fixtures = Fixtures.repositoryFixturesDirectory
    let url: URL?
    if name.hasPrefix("test/daemon/") {
      url = try? Fixtures.gpsdLog(String(name.dropFirst("test/daemon/".count)))
    } else if name.hasSuffix(".gpx") {
      url = Fixtures.routesDirectory.appendingPathComponent("garmin-activity.gpx")
    } else if name.hasSuffix(".kml") {
      url = Fixtures.routesDirectory.appendingPathComponent("cerknicko-jezero.kml")
    } else if name.hasSuffix(".json") {
      url = fixtures.appendingPathComponent("scenarios/tunnel.json")
    } else if name.hasSuffix(".alm") {
      url = Fixtures.almanacDirectory.appendingPathComponent("almanac.yuma.week0149.405504.txt")
    } else if name.hasSuffix(".nmea") {
      url = try? Fixtures.gpsdLog("bu303-moving.log")
    } else if name.hasSuffix(".ubx") {
      url = try? Fixtures.gpsdLog("ublox-8.log")
    } else {
      url = nil
    }
    guard let path = url?.path, FileManager.default.fileExists(atPath: path) else { return nil }
    return path
  }
}

extension CommandLineProcessTests {
  /// Every `mockgps run` line of the README that can run here starts as printed: its start
  /// line, and no warning that epochs will be skipped (the MediaTek 10 Hz example at 9600
  /// baud ran at 2 Hz); SIGTERM (or its own end, with --once) ends it with status 0.
  @Test(.timeLimit(.minutes(10))) func theReadmeRunLinesStartWithoutSkippingEpochs() throws {
    let directory = try ScratchDirectory("readme")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    // The receiver the passthrough lines pass through.
    let (receiver, _) = try MockGPSBinary.start([
      "--link", directory.path + "/receiver", "--no-control",
    ])
    defer { receiver.kill() }
    var ran = 0
    for line in ReadmeRunExample.lines {
      guard
        let arguments = ReadmeRunExample.runnable(
          line, link: link, folder: directory.path, receiver: directory.path + "/receiver")
      else { continue }
      ran += 1
      let process = try TestProcess(MockGPSBinary.path, ["run"] + arguments)
      defer { process.kill() }
      let started = process.wait(seconds: 10) {
        !process.isRunning || process.standardError.contains("mockgps: \(link) -> /dev/pts/")
          || process.standardOutput.contains("mockgps: \(link) -> /dev/pts/")
      }
      #expect(started, "\(line): \(process.standardError)")
      process.signal(SIGTERM)
      #expect(process.exitStatus(within: 10) == 0, "\(line): \(process.standardError)")
      #expect(!process.standardError.contains("epochs will be skipped"), "\(line)")
    }
    // The quick start, routes, scenario, profiles, replays, passthroughs, network outputs and
    // control socket at least.
    #expect(ran >= 23, "ran \(ran) of \(ReadmeRunExample.lines.count)")
  }
}
