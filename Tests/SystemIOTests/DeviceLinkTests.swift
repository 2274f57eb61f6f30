import Foundation
import SystemIO
import TestFixtures
import Testing

@Suite(.blocking) struct DeviceLinkDecisionTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let existing: DeviceLink.Existing
    var ownTarget = "/dev/pts/7"
    let decision: DeviceLink.Decision
    var testDescription: String { "\(existing) for \(ownTarget)" }
  }

  static let cases: [Case] = [
    Case(existing: .nothing, decision: .create),
    Case(
      existing: .link(target: "/dev/pts/41", targetExists: false),
      decision: .replaceStale(previousTarget: "/dev/pts/41")),
    Case(
      existing: .link(target: "/dev/pts/3", targetExists: true),
      decision: .refuse(
        reason: "is the live link of another mockgps or program ('/dev/pts/3' is in use)")),
    Case(
      existing: .link(target: "/dev/pts/7", targetExists: true),
      decision: .replaceStale(previousTarget: "/dev/pts/7")),
    Case(
      existing: .link(target: "/dev/null", targetExists: true), ownTarget: "/dev/null",
      decision: .refuse(reason: "is a link to '/dev/null', a device or file that exists")),
    Case(
      existing: .link(target: "/dev/ttyUSB0", targetExists: true),
      decision: .refuse(reason: "is a link to '/dev/ttyUSB0', a device or file that exists")),
    Case(
      existing: .link(target: "/tmp/gone", targetExists: false),
      decision: .refuse(reason: "is a link to '/tmp/gone' that mockgps did not make")),
    Case(
      existing: .link(target: "/dev/pts/../../tmp/x", targetExists: false),
      decision: .refuse(reason: "is a link to '/dev/pts/../../tmp/x' that mockgps did not make")),
    Case(
      existing: .link(target: "/dev/pts/../../etc/passwd", targetExists: true),
      decision: .refuse(
        reason: "is a link to '/dev/pts/../../etc/passwd', a device or file that exists")),
    Case(
      existing: .link(target: "/dev/pts/", targetExists: true),
      decision: .refuse(reason: "is a link to '/dev/pts/', a device or file that exists")),
    Case(
      existing: .link(target: "/dev/pts/4x", targetExists: false),
      decision: .refuse(reason: "is a link to '/dev/pts/4x' that mockgps did not make")),
    Case(existing: .regularFile, decision: .refuse(reason: "is a regular file")),
    Case(existing: .directory, decision: .refuse(reason: "is a directory")),
    Case(existing: .other(kind: "socket"), decision: .refuse(reason: "is a socket")),
  ]

  @Test(arguments: cases) func decidesFromWhatIsThere(_ c: Case) {
    #expect(DeviceLink.decide(c.existing, ownTarget: c.ownTarget) == c.decision)
  }
}

@Suite(.blocking, .serialized) struct DeviceLinkFileTests {
  let directory: String

  init() throws {
    directory = NSTemporaryDirectory() + "mockgps-link-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

  @Test func createsAFreshLinkAndRemovesItOnlyWhileItIsOurs() throws {
    defer { cleanUp() }
    let path = directory + "/ttyA"
    let link = try DeviceLink.create(at: path, pointingTo: "/dev/null")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/null")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["ttyA"])
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    #expect(!link.removeIfStillOurs())
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/zero")
  }

  @Test func replacesAStaleLinkToAGonePseudoTerminal() throws {
    defer { cleanUp() }
    let path = directory + "/ttyB"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/pts/99999")
    let link = try DeviceLink.create(at: path, pointingTo: "/dev/null")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/null")
    #expect(link.removeIfStillOurs())
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func refusesARegularFileAndLeavesItAlone() throws {
    defer { cleanUp() }
    let path = directory + "/ttyC"
    try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(throws: DeviceLink.CreationError.occupied(path: path, reason: "is a regular file")) {
      try DeviceLink.create(at: path, pointingTo: "/dev/null")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["ttyC"])
  }

  @Test func refusesALinkToARealDevice() throws {
    defer { cleanUp() }
    let path = directory + "/ttyD"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
    #expect(throws: DeviceLink.CreationError.self) {
      try DeviceLink.create(at: path, pointingTo: "/dev/zero")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/null")
  }

  @Test func refusesTheLiveLinkOfAnotherPseudoTerminal() throws {
    defer { cleanUp() }
    let terminal = try PseudoTerminal.open(baud: 9600)
    let path = directory + "/ttyE"
    _ = try DeviceLink.create(at: path, pointingTo: terminal.slavePath)
    #expect(throws: DeviceLink.CreationError.self) {
      try DeviceLink.create(at: path, pointingTo: "/dev/null")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == terminal.slavePath)
  }

  @Test func aLinkToOurOwnFreshSlaveIsStaleAndReplaced() throws {
    defer { cleanUp() }
    // After a crash the kernel hands the restarted emulator the pts number the old link names.
    let terminal = try PseudoTerminal.open(baud: 9600)
    let path = directory + "/ttyG"
    try FileManager.default.createSymbolicLink(
      atPath: path, withDestinationPath: terminal.slavePath)
    let link = try DeviceLink.create(at: path, pointingTo: terminal.slavePath)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == terminal.slavePath)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["ttyG"])
    #expect(link.removeIfStillOurs())
  }

  @Test func aLinkNameOf255CharactersCanBeCreated() throws {
    defer { cleanUp() }
    let name = String(repeating: "a", count: 255)
    let link = try DeviceLink.create(at: directory + "/" + name, pointingTo: "/dev/null")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [name])
    #expect(link.removeIfStillOurs())
  }

  @Test func aDanglingLinkThatOnlyStartsWithDevPtsIsNotOurs() throws {
    defer { cleanUp() }
    let path = directory + "/ttyH"
    let target = "/dev/pts/../../tmp/mockgps-no-such-\(UUID().uuidString)"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    #expect(
      throws: DeviceLink.CreationError.occupied(
        path: path, reason: "is a link to '\(target)' that mockgps did not make")
    ) {
      try DeviceLink.create(at: path, pointingTo: "/dev/null")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target)
  }

  @Test func aLinkThroughDevPtsToAnExistingFileIsNamedAsSuch() throws {
    defer { cleanUp() }
    let path = directory + "/ttyI"
    try FileManager.default.createSymbolicLink(
      atPath: path, withDestinationPath: "/dev/pts/../../etc/passwd")
    do {
      _ = try DeviceLink.create(at: path, pointingTo: "/dev/null")
      Issue.record("replaced a link to an existing file")
    } catch {
      #expect(
        error.description
          == "'\(path)' is a link to '/dev/pts/../../etc/passwd', a device or file that exists; "
          + "not touching it (choose another --link)")
    }
  }

  @Test func aFolderThatIsAFileIsNamedAsNotAFolder() throws {
    defer { cleanUp() }
    let file = directory + "/plain"
    try "x".write(toFile: file, atomically: false, encoding: .utf8)
    for path in [file + "/ttyJ", file + "/sub/ttyJ"] {
      do {
        _ = try DeviceLink.create(at: path, pointingTo: "/dev/null")
        Issue.record("created '\(path)' below a regular file")
      } catch {
        #expect(error.description == "cannot create the link: '\(file)' is not a folder")
      }
    }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
  }

  @Test func aMissingFolderIsNamed() throws {
    defer { cleanUp() }
    let path = directory + "/no/such/ttyF"
    #expect(throws: DeviceLink.CreationError.directoryMissing(directory: directory + "/no/such")) {
      try DeviceLink.create(at: path, pointingTo: "/dev/null")
    }
  }
}
