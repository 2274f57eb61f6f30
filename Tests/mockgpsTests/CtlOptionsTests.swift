import Foundation
import MockGPS
import Servers
import SystemIO
import Testing

@testable import mockgps

@Suite struct CtlOptionsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let line: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["status"], line: #"{"cmd":"status"}"#),
    Case(
      arguments: ["position", "48.85", "2.35"], line: #"{"cmd":"position","lat":48.85,"lon":2.35}"#),
    Case(
      arguments: ["position", "48.85,2.35,35"],
      line: #"{"cmd":"position","lat":48.85,"lon":2.35,"alt":35}"#),
    Case(
      arguments: ["velocity", "12.5", "270"], line: #"{"cmd":"velocity","speed":12.5,"course":270}"#
    ),
    Case(arguments: ["fix", "none"], line: #"{"cmd":"fix","mode":"none"}"#),
    Case(arguments: ["satellites", "all"], line: #"{"cmd":"satellites","used":"all"}"#),
    Case(arguments: ["satellites", "5"], line: #"{"cmd":"satellites","used":5}"#),
    Case(
      arguments: ["dop", "1.2", "1.8", "2.2"],
      line: #"{"cmd":"dop","hdop":1.2,"vdop":1.8,"pdop":2.2}"#),
    Case(arguments: ["dop", "scale", "3"], line: #"{"cmd":"dop","scale":3}"#),
    Case(arguments: ["dop", "reset"], line: #"{"cmd":"dop","reset":true}"#),
    Case(arguments: ["seek", "120.5"], line: #"{"cmd":"seek","time":120.5}"#),
    Case(arguments: ["scale", "10"], line: #"{"cmd":"scale","factor":10}"#),
    Case(arguments: ["rate", "5"], line: #"{"cmd":"rate","hz":5}"#),
    Case(arguments: ["rate", "1e1"], line: #"{"cmd":"rate","hz":10}"#),
    Case(
      arguments: ["route", "/tmp/a b.gpx", "--speed", "12", "--loop"],
      line: #"{"cmd":"route","file":"/tmp/a b.gpx","speed":12,"loop":true}"#),
    Case(
      arguments: ["override", "offset", "10,-5"],
      line: #"{"cmd":"override","mode":"offset","north":10,"east":-5}"#),
    Case(
      arguments: ["override", "replace", "1,2,3"],
      line: #"{"cmd":"override","mode":"replace","lat":1,"lon":2,"alt":3}"#),
    Case(
      arguments: ["inject", "jump", "5", "north=100"],
      line: #"{"cmd":"inject","fault":"jump","duration":5,"north":100}"#),
    Case(arguments: ["status", "id=a\"b"], line: #"{"cmd":"status","id":"a\"b"}"#),
    Case(
      arguments: ["status", "flag=true", "n=null"],
      line: #"{"cmd":"status","flag":true,"n":null}"#),
  ]

  @Test(arguments: cases) func buildsTheRequestLine(_ c: Case) throws {
    #expect(try CtlOptions.parse(c.arguments).requestLine == c.line)
  }

  /// The daemon's working folder is not the caller's (`/` under systemd): `ctl` sends the
  /// path it was given made absolute against its own.
  @Test func aRelativeRouteFileIsSentAbsolute() throws {
    let folder = FileManager.default.currentDirectoryPath
    #expect(
      try CtlOptions.parse(["route", "drive.gpx"]).requestLine
        == #"{"cmd":"route","file":"\#(folder)/drive.gpx"}"#)
  }

  @Test func findsTheSocketOfALinkAsRunDoes() throws {
    let options = try CtlOptions.parse(["--link", "/tmp/my tty", "--json", "status"])
    #expect(options.socketPath == ControlSettings.defaultPath(forLink: "/tmp/my tty"))
    #expect(options.printsJSON)
    #expect(try CtlOptions.parse(["subscribe", "--count", "3"]).subscriptionCount == 3)
  }

  @Test func badArgumentsAreUsageErrors() {
    for arguments in [
      [], ["--control"], ["position", "x", "1"], ["position", "1"], ["fix", "a", "b"],
      ["subscribe", "--count", "0"], ["status", "extra"],
      ["--link", "a", "--control", "b", "status"],
      ["status", "=1"], ["rate", "0x10"], ["rate", "inf"], ["rate", "+5"], ["rate", ".5"],
      ["position", "1e1x", "2"], ["bogus"], ["--json", "Status"],
    ] {
      #expect(throws: UsageError.self, "\(arguments)") { _ = try CtlOptions.parse(arguments) }
    }
  }

  /// A usage error of `ctl` or `record` points to that command's help page, not the main one
  /// (review: `ctl rate 0x10` said "See 'mockgps --help'").
  @Test func aCommandsUsageErrorPointsToItsOwnHelp() {
    for (arguments, help) in [
      (["ctl", "rate", "0x10"], "mockgps ctl --help"),
      (["record", "/dev/null"], "mockgps record --help"),
      (["run", "--rate", "0x10"], "mockgps --help"),
    ] {
      do {
        _ = try Command.parse(arguments)
        Issue.record("accepted: \(arguments)")
      } catch {
        #expect(error.report.hasSuffix("\nSee '\(help)'.\n"), "\(error.report)")
      }
    }
  }

  /// An unknown command is a usage error (exit 64) before anything is sent, as for `run`.
  @Test func anUnknownCommandNamesTheCommands() {
    do {
      _ = try CtlOptions.parse(["bogus"])
      Issue.record("accepted")
    } catch {
      #expect(
        error.message
          == "unknown command 'bogus' for 'ctl' (expected one of status, position, velocity, fix, "
          + "satellites, dop, pause, resume, seek, scale, rate, route, override, inject, "
          + "subscribe)")
    }
  }
}

@Suite struct ControlSettingsTests {
  @Test func theDefaultSocketIsNamedAfterTheLinkAsSystemdEscapeDoes() {
    #expect(ControlSettings.escapedName(ofPath: "/dev/ttyMOCKGPS") == "dev-ttyMOCKGPS")
    #expect(ControlSettings.escapedName(ofPath: "//tmp//a-b/.x y/") == "tmp-a\\x2db-.x\\x20y")
    #expect(ControlSettings.escapedName(ofPath: ".hidden") == "\\x2ehidden")
    #expect(
      ControlSettings.defaultPath(forLink: "/dev/ttyMOCKGPS", runtimeDirectory: "/run/user/1000")
        == "/run/user/1000/mockgps/dev-ttyMOCKGPS.sock")
    #expect(
      ControlSettings.defaultPath(forLink: "/dev/ttyGPS0", runtimeDirectory: nil, userID: 0)
        == "/run/mockgps/dev-ttyGPS0.sock")
    #expect(
      ControlSettings.defaultPath(forLink: "/dev/ttyGPS0", runtimeDirectory: "", userID: 1000)
        == "/tmp/mockgps-1000/dev-ttyGPS0.sock")
  }

  @Test func aRelativeLinkIsNamedAfterItsAbsolutePath() {
    let here = WorkingDirectory.absolute("")
    let name = ControlSettings.escapedName(ofPath: here + "/dl2")
    for link in ["dl2", "./dl2", ".//dl2"] {
      #expect(
        ControlSettings.defaultPath(forLink: link, runtimeDirectory: "/r")
          == "/r/mockgps/\(name).sock")
    }
    // The gpsX of another folder is another link.
    #expect(
      ControlSettings.defaultPath(forLink: "gpsX", runtimeDirectory: "/r")
        != ControlSettings.defaultPath(forLink: "/elsewhere/gpsX", runtimeDirectory: "/r"))
  }

  @Test func runTakesTheControlOptions() throws {
    guard case .run(let options) = try Command.parse(["--link", "/tmp/x", "--no-control"]) else {
      Issue.record("not run")
      return
    }
    #expect(options.configuration.control == nil)
    guard
      case .run(let named) = try Command.parse([
        "--control", "/tmp/c.sock", "--control-group", "daemon",
      ])
    else { return }
    #expect(
      named.configuration.control == ControlSettings(path: "/tmp/c.sock", groupName: "daemon"))
    #expect(named.configuration.control?.mode == 0o660)
    guard case .run(let defaulted) = try Command.parse(["--link", "/tmp/x"]) else { return }
    #expect(defaulted.configuration.control?.isExplicit == false)
    #expect(defaulted.configuration.control?.path.hasSuffix("/tmp-x.sock") == true)
    #expect(throws: UsageError.self) { _ = try Command.parse(["--no-control", "--control", "/a"]) }
  }
}
