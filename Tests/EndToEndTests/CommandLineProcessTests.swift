import Foundation
import Glibc
import MockGPSTestSupport
import TestFixtures
import Testing

@Suite(.blocking, .serialized) struct CommandLineProcessTests {
  @Test func helpExitsZero() throws {
    let (status, output, _) = try MockGPSBinary.run(["run", "--help"])
    #expect(status == 0)
    #expect(output.hasPrefix("OVERVIEW: Emulate one serial GPS receiver"))
  }

  @Test func aUsageErrorExits64WithOneLineAndThePointerToHelp() throws {
    let (status, output, errors) = try MockGPSBinary.run(["run", "--rate", "40"])
    #expect(status == 64)
    #expect(output == "")
    #expect(
      errors == "mockgps: invalid value '40' for '--rate': expected a rate in Hz from 0.1 to 20\n"
        + "See 'mockgps --help'.\n")
  }

  @Test func profilesListsOneLinePerProfileAndExitsZero() throws {
    let (status, output, errors) = try MockGPSBinary.run(["profiles"])
    #expect(status == 0)
    #expect(errors == "")
    let lines = output.split(separator: "\n")
    #expect(lines.count >= 1)
    #expect(lines.first?.hasPrefix("generic ") == true)
    #expect(lines.filter { $0.hasSuffix("(default)") }.count == 1)
  }

  @Test(arguments: [
    (["--profile", "garmin"], "'garmin' for '--profile': expected one of generic"),
    (["--constellations", "gps,qzss"], "'gps,qzss' for '--constellations': expected a comma"),
    (
      ["--profile", "ublox-m8", "--constellations", "gps,glonass,galileo,beidou"],
      "'gps,glonass,galileo,beidou' for '--constellations': profile 'ublox-m8' cannot track 4 "
        + "systems at once: it tracks at most 3 at once of gps, glonass, galileo, beidou "
        + "(and sbas)\n"
    ),
  ])
  func anUnknownProfileOrSystemExits64ListingTheValidOnes(
    arguments: [String], message: String
  ) throws {
    let directory = try ScratchDirectory("profile")
    defer { directory.remove() }
    let (status, output, errors) = try MockGPSBinary.run(
      ["run", "--link", directory.path + "/tty"] + arguments)
    #expect(status == 64)
    #expect(output == "")
    #expect(errors.hasPrefix("mockgps: invalid value " + message))
    #expect(errors.hasSuffix("\nSee 'mockgps --help'.\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  /// libxml2's own error lines ("encoding error : …", "xmlParseChunk: encoder error") do not
  /// reach standard error: the one diagnostic line does.
  @Test func aRouteInABrokenEncodingIsOneDiagnosticLine() throws {
    let directory = try ScratchDirectory("encoding")
    defer { directory.remove() }
    let file = directory.path + "/e.gpx"
    let bytes =
      Array(
        "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<gpx><wpt lat=\"1\" lon=\"2\"><name>".utf8)
      + [0xFF, 0xFE, 0x80, 0x81] + Array("</name></wpt></gpx>\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    let (status, output, errors) = try MockGPSBinary.run(["check", file])
    #expect(status == 65)
    #expect(output == "")
    #expect(
      errors == "\(file):2: malformed XML: input conversion failed due to input error, bytes "
        + "0xFF 0xFE 0x80 0x81\n")
  }

  @Test func aMissingAlmanacExits66AndABadOneExits65NamingFileAndLine() throws {
    let directory = try ScratchDirectory("almanac")
    defer { directory.remove() }
    let link = directory.path + "/tty"
    let (missingStatus, _, missingErrors) = try MockGPSBinary.run(
      ["run", "--link", link, "--almanac", directory.path + "/none.alm"])
    #expect(missingStatus == 66)
    #expect(missingErrors.contains(directory.path + "/none.alm"))
    let bad = directory.path + "/bad.alm"
    try "******** Week 149 almanac for PRN-01 ********\nID:                         01\n"
      .appending("Health:                     zero\n")
      .write(toFile: bad, atomically: true, encoding: .utf8)
    let (invalidStatus, _, invalidErrors) = try MockGPSBinary.run(
      ["run", "--link", link, "--almanac", bad])
    #expect(invalidStatus == 65)
    #expect(invalidErrors.contains(bad + ":3"))
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func anUnknownGroupIsAUsageError() throws {
    let directory = try ScratchDirectory("group")
    defer { directory.remove() }
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", directory.path + "/tty", "--group", "no-such-group",
    ])
    #expect(status == 64)
    #expect(errors.hasPrefix("mockgps: invalid value 'no-such-group' for '--group'"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/tty"))
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aTerminationSignalRemovesTheLinkAndExitsZero(signal: Int32) throws {
    let directory = try ScratchDirectory("signal")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (process, slave) = try MockGPSBinary.start(["--link", link, "--rate", "5"])
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == slave)
    var info = stat()
    #expect(stat(slave, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o660)
    if geteuid() == 0 { #expect(info.st_gid == 20) }  // dialout
    process.signal(signal)
    #expect(process.exitStatus(within: 5) == 0)
    #expect(!FileManager.default.fileExists(atPath: link))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  @Test func aRateAndTimeScaleBeyondTheWireLimitAreAUsageError() throws {
    let directory = try ScratchDirectory("too-fast")
    defer { directory.remove() }
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", directory.path + "/tty", "--rate", "20", "--time-scale", "100",
    ])
    #expect(status == 64)
    #expect(
      errors
        == "mockgps: invalid combination of '--rate' and '--time-scale': 20 Hz at time scale 100 "
        + "needs 2000 epochs a second on the wire, more than 1000\nSee 'mockgps --help'.\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  /// SIGUSR1 wakes the main thread when the source has ended; sent from outside before that,
  /// it neither ends the run nor kills the process.
  @Test func aStraySIGUSR1DoesNotEndTheRun() throws {
    let directory = try ScratchDirectory("usr1")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (process, _) = try MockGPSBinary.start(["--link", link, "--time-scale", "10"])
    defer { process.kill() }
    process.signal(SIGUSR1)
    #expect(process.exitStatus(within: 0.5) == nil)
    #expect(FileManager.default.fileExists(atPath: link))
    process.signal(SIGTERM)
    #expect(process.exitStatus(within: 5) == 0)
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func aRegularFileAtTheLinkIsRefusedAndLeftAlone() throws {
    let directory = try ScratchDirectory("file")
    defer { directory.remove() }
    let path = directory.path + "/ttyMOCKGPS"
    try "data".write(toFile: path, atomically: false, encoding: .utf8)
    let (status, _, errors) = try MockGPSBinary.run(["run", "--link", path])
    #expect(status == 1)
    #expect(
      errors == "mockgps: '\(path)' is a regular file; not touching it (choose another --link)\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "data")
  }

  @Test func theLiveLinkOfAnotherMockgpsIsRefused() throws {
    let directory = try ScratchDirectory("live")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    let (first, slave) = try MockGPSBinary.start(["--link", link])
    defer { first.kill() }
    let (status, _, errors) = try MockGPSBinary.run(["run", "--link", link])
    #expect(status == 1)
    #expect(errors.contains("is the live link of another mockgps or program"))
    #expect(errors.contains("hint: if no mockgps runs on it, one crashed"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == slave)
    first.signal(SIGTERM)
    #expect(first.exitStatus(within: 5) == 0)
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func aStaleLinkLeftByACrashIsReplaced() throws {
    let directory = try ScratchDirectory("stale")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/99998")
    let (process, slave) = try MockGPSBinary.start(["--link", link])
    defer { process.kill() }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == slave)
  }

  @Test func aRestartAfterSIGKILLReplacesTheLinkItsOwnSlaveInherited() throws {
    let directory = try ScratchDirectory("restart")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    // The kernel gives the next pseudo-terminal the lowest free number, the one the crash
    // freed, unless a test running beside this one takes it first: then the restart is
    // rightly refused (that terminal is someone else's now), and the crash is tried again.
    var restarted: (TestProcess, String)?
    for _ in 0..<5 where restarted == nil {
      let (first, firstSlave) = try MockGPSBinary.start(["--link", link])
      first.signal(SIGKILL)
      #expect(first.exitStatus(within: 5) == 128 + SIGKILL)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == firstSlave)
      let process = try TestProcess(MockGPSBinary.path, ["run", "--link", link])
      if process.wait(seconds: 10, until: { process.standardOutput.contains("\n") }) {
        let slave = process.standardOutput.split(separator: " ").first { $0.hasPrefix("/dev/pts/") }
        restarted = (process, slave.map(String.init) ?? "")
      } else {
        #expect(process.exitStatus(within: 5) == 1)
        #expect(process.standardError.contains("is in use"))
        try? FileManager.default.removeItem(atPath: link)
      }
    }
    let (second, secondSlave) = try #require(restarted, "never restarted after the crash")
    defer { second.kill() }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == secondSlave)
    second.signal(SIGTERM)
    #expect(second.exitStatus(within: 5) == 0)
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  @Test func aLinkToARealDeviceIsRefused() throws {
    let directory = try ScratchDirectory("device")
    defer { directory.remove() }
    let link = directory.path + "/ttyMOCKGPS"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    let (status, _, errors) = try MockGPSBinary.run(["run", "--link", link])
    #expect(status == 1)
    #expect(errors.contains("is a link to '/dev/null'"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
  }

  @Test func withoutRightsOnDevTheErrorSuggestsAWritableLink() throws {
    let link = "/dev/ttyMOCKGPS-test-\(UUID().uuidString.prefix(8))"
    var command = [MockGPSBinary.pathForOtherUsers, "run", "--link", link]
    if getuid() == 0 {
      let setpriv = try #require(findExecutable("setpriv"))
      command = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command
    }
    let process = try TestProcess(command[0], Array(command.dropFirst()))
    #expect(process.exitStatus(within: 10) == 1)
    #expect(
      process.standardError == "mockgps: cannot create a link in '/dev': permission denied\n"
        + "hint: run as root, or use --link with a writable path, such as --link /tmp/\(link.dropFirst(5))\n"
    )
    #expect(!FileManager.default.fileExists(atPath: link))
  }

  /// Without the right to change the group, the mode asked for is still set.
  @Test(.enabled(if: getuid() == 0, "runs mockgps as nobody, which needs root to arrange"))
  func theModeIsSetEvenWhenTheGroupCannotBe() throws {
    let directory = try ScratchDirectory("mode")
    defer { directory.remove() }
    chmod(directory.path, 0o777)
    let link = directory.path + "/ttyMOCKGPS"
    let setpriv = try #require(findExecutable("setpriv"))
    let process = try TestProcess(
      setpriv,
      [
        "--reuid=nobody", "--regid=nogroup", "--clear-groups", MockGPSBinary.pathForOtherUsers,
        "run", "--link",
        link, "--mode", "0666",
      ])
    defer { process.kill() }
    #expect(process.wait(seconds: 10) { process.standardOutput.contains("\n") })
    var info = stat()
    #expect(stat(link, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o666)
    // The warning comes through the log's own writer thread and another pipe than the ready
    // line: it may arrive after it (a loaded run read stderr empty).
    #expect(
      process.wait(seconds: 10) { process.standardError.contains("cannot change the group of") },
      "\(process.standardError)")
  }
}
