import DeviceRuntime
import Foundation
import Geodesy
import Glibc
import InputFiles
import MockGPSTestSupport
import Receiver
import RouteFiles
import TestFixtures
import Testing
import UBX

@testable import DeviceTerminal
@testable import MockGPS

/// The state file of `--state-dir` on a real file system: its name, its atomic replacement
/// with mode 0600, and what it refuses (a symbolic link at its name, a file that is not a state,
/// a directory others may write to).
@Suite(.blocking) struct ChipStateFileTests {
  static let log = Log(level: .error)

  /// A fresh directory of this user, mode 0700, removed by the caller.
  static func directory() throws -> String {
    let path = NSTemporaryDirectory() + "mockgps-state-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    chmod(path, 0o700)
    return path
  }

  static let state = ChipState(
    profileName: "ublox-m8",
    records: [ChipState.Record(layer: .flash, item: "06-08/0000", value: [0xC8, 0, 1, 0, 1, 0])])

  @Test func theNameIsTheLinksPathWithPlusForEachSlash() {
    #expect(ChipStateFile.name(forLink: "/dev/ttyMOCKGPS0") == "dev+ttyMOCKGPS0.state")
    #expect(ChipStateFile.name(forLink: "/dev//./gps") == "dev+gps.state")
    #expect(ChipStateFile.name(forLink: "/tmp/a+b/gps%1") == "tmp+a%2Bb+gps%251.state")
  }

  @Test func aSavedStateIsWrittenAtomicallyMode0600AndLoadsBack() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
    #expect(try file.load(profileName: "ublox-m8") == nil)
    file.save(Self.state)
    file.flush()
    #expect(file.path == directory + "/dev+ttyTEST.state")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["dev+ttyTEST.state"])
    var status = stat()
    #expect(lstat(file.path, &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o600)
    #expect(try String(contentsOfFile: file.path, encoding: .utf8) == Self.state.text)
    let again = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
    #expect(try again.load(profileName: "ublox-m8")?.text == Self.state.text)
  }

  @Test func aFileOfAnotherFormatIsRefusedNamingTheFileAndLine() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
    try "mockgps-chip-state 1 ublox-m8\nflash 06-08/0000 c8\u{0}\n".write(
      toFile: file.path, atomically: false, encoding: .utf8)
    chmod(file.path, 0o600)
    #expect(
      throws: InputFileError.invalid([
        InputDiagnostic(
          InputLocation(file: file.path, line: 2),
          "value 'c8?' (expected bytes in hex, two digits each)")
      ])
    ) { try file.load(profileName: "ublox-m8") }
  }

  @Test func aSymbolicLinkAtTheNameIsNeverFollowed() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let target = directory + "/target"
    try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
    let file = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
    try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
    #expect(
      throws: InputFileError.invalid([
        InputDiagnostic(InputLocation(file: file.path), "a symbolic link (expected a regular file)")
      ])
    ) { try file.load(profileName: "ublox-m8") }
    file.save(Self.state)
    file.flush()
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) == nil)
  }

  @Test(arguments: [0o770, 0o777, 0o1777, 0o720])
  func aDirectoryOthersMayWriteToIsRefusedStickyOrNot(_ mode: Int) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    chmod(directory, mode_t(mode))
    let shown = String(mode, radix: 8)
    #expect(
      throws: InputFileError.unreadable(
        path: directory,
        reason: "mode \(String(repeating: "0", count: 4 - shown.count) + shown) "
          + "(expected no group or other write permission)")
    ) { try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log) }
    chmod(directory, 0o755)
    _ = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
  }

  /// A file others could have written, or a hard link to a file elsewhere (which a save would
  /// not write through, but a load would read), is not taken for the chip's state.
  @Test func aFileOthersMayWriteOrWithAnotherLinkIsRefused() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = try ChipStateFile(directory: directory, link: "/dev/ttyTEST", log: Self.log)
    file.save(Self.state)
    file.flush()
    chmod(file.path, 0o664)
    #expect(
      throws: InputFileError.invalid([
        InputDiagnostic(
          InputLocation(file: file.path), "mode 0664 (expected no group or other write permission)")
      ])
    ) { try file.load(profileName: "ublox-m8") }
    chmod(file.path, 0o600)
    #expect(link(file.path, directory + "/other") == 0)
    #expect(
      throws: InputFileError.invalid([
        InputDiagnostic(InputLocation(file: file.path), "2 hard links (expected a file of its own)")
      ])
    ) { try file.load(profileName: "ublox-m8") }
  }

  /// Another user who may write a folder on the way, or who owns a symbolic link on it, could
  /// point a root mockgps at a directory of their choosing: refused. A link of this user's
  /// to a safe directory, and `/tmp`'s sticky bit on the way, are fine.
  @Test(.enabled(if: geteuid() == 0))
  func aWayOthersMayChangeIsRefused() throws {
    let top = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: top) }
    chmod(top, 0o755)
    let safe = top + "/safe"
    try FileManager.default.createDirectory(atPath: safe, withIntermediateDirectories: false)
    chmod(safe, 0o700)
    // A link of this user's: followed.
    #expect(symlink(safe, top + "/mine") == 0)
    _ = try ChipStateFile(directory: top + "/mine", link: "/dev/ttyTEST", log: Self.log)
    // Another user's link in a folder of their own, to a directory root owns.
    let theirs = top + "/theirs"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    chmod(theirs, 0o755)
    #expect(symlink(safe, theirs + "/state") == 0)
    #expect(lchown(theirs + "/state", 65534, 65534) == 0)
    #expect(
      throws: InputFileError.unreadable(
        path: theirs + "/state",
        reason: "\(theirs)/state is a symbolic link of user 65534 (expected root's or user 0's)")
    ) { try ChipStateFile(directory: theirs + "/state", link: "/dev/ttyTEST", log: Self.log) }
    #expect(lchown(theirs + "/state", 0, 0) == 0)
    chown(theirs, 65534, 65534)
    #expect(
      throws: InputFileError.unreadable(
        path: theirs + "/state", reason: "\(theirs) on the way is owned by user 65534")
    ) { try ChipStateFile(directory: theirs + "/state", link: "/dev/ttyTEST", log: Self.log) }
    chown(theirs, 0, 0)
    chmod(theirs, 0o777)
    #expect(
      throws: InputFileError.unreadable(
        path: theirs + "/state",
        reason: "\(theirs) on the way has mode 0777 (others may replace what it holds)")
    ) { try ChipStateFile(directory: theirs + "/state", link: "/dev/ttyTEST", log: Self.log) }
    chmod(theirs, 0o1777)
    _ = try ChipStateFile(directory: theirs + "/state", link: "/dev/ttyTEST", log: Self.log)
  }

  @Test func aMissingDirectoryIsUnreadable() {
    #expect(
      throws: InputFileError.unreadable(
        path: "/nonexistent/state", reason: "No such file or directory")
    ) { try ChipStateFile(directory: "/nonexistent/state", link: "/dev/ttyTEST", log: Self.log) }
  }

  /// On the manual clock, two runs with the same link and state directory: the first is set
  /// to 5 Hz and saves with CFG-CFG; the second's epochs follow each other at 200 ms from its
  /// first (at the factory rate they are a second apart).
  @Test func theNextRunOnTheSameLinkStartsAtTheSavedRate() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let m8 = try #require(ReceiverProfile.named("ublox-m8"))
    var configuration = EmulatorConfiguration(profile: m8)
    configuration.pacing = try BytePacing(baud: 115_200)
    configuration.stateDirectory = directory + "/state"
    #expect(mkdir(directory + "/state", 0o700) == 0)
    let link = directory + "/gps"
    let first = try EmulatorHarness(configuration: configuration, linkPath: link)
    let rate = UBXNavigationRate(measurementPeriodMilliseconds: 200, measurementsPerEpoch: 1)
    let commands =
      rate.frame.bytes
      + UBXStorageCommand(save: UBXConfigurationSections(rawValue: 0x1F1F)).frame.bytes
    try first.send(bytes: commands, commands: 2, expectingReplies: 2)
    first.stop()
    let file = try ChipStateFile(directory: directory + "/state", link: link, log: Self.log)
    #expect(try file.load(profileName: m8.name)?.records.isEmpty == false)

    let second = try EmulatorHarness(configuration: configuration, linkPath: link)
    defer { second.stop() }
    var ends: [Int64] = []
    for _ in 0..<4 {
      _ = try second.step()
      ends.append(second.clock.now().nanoseconds)
    }
    let intervals = zip(ends.dropFirst(), ends.dropFirst(2)).map { $1 - $0 }
    #expect(intervals == [200_000_000, 200_000_000], "\(intervals) ns between epochs")
  }

  /// `--base` with a state directory: the station is this run's, not saved for it, so the next
  /// run on the link without `--base` sends no RTCM (it did, from the saved BBR, before).
  @Test func aBaseIsNotSavedForTheNextRun() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = EmulatorConfiguration(
      source: .fixed(GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 60)),
      pacing: try BytePacing(baud: 115_200), profile: .ubloxF9P)
    configuration.stateDirectory = directory + "/state"
    #expect(mkdir(directory + "/state", 0o700) == 0)
    let link = directory + "/gps"
    var base = configuration
    base.isBase = true
    let first = try EmulatorHarness(configuration: base, linkPath: link)
    _ = try first.step()
    let rtcm = try first.step()
    first.stop()
    #expect(rtcm.contains(0xD3), "the station sends RTCM 3")
    let second = try EmulatorHarness(configuration: configuration, linkPath: link)
    defer { second.stop() }
    _ = try second.step()
    let plain = try second.step()
    var demultiplexer = InputDemultiplexer()
    let frames = demultiplexer.append(plain).filter {
      if case .rtcm = $0 { true } else { false }
    }
    #expect(frames.isEmpty, "\(frames.count) RTCM frames from a run without --base")
  }

  /// A saved item with a value the chip does not take: one warning naming the file, line and
  /// key; the run starts with the other items loaded.
  @Test func aSavedValueTheChipDoesNotTakeIsLoggedOnceAndLeftOut() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(mkdir(directory + "/state", 0o700) == 0)
    let link = directory + "/gps"
    let path = directory + "/state/" + ChipStateFile.name(forLink: link)
    let text = "mockgps-chip-state 1 ublox-f9p\nflash 20110021 63\nflash 30210001 c800\n"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    chmod(path, 0o600)
    var configuration = EmulatorConfiguration(profile: .ubloxF9P)
    configuration.pacing = try BytePacing(baud: 115_200)
    configuration.stateDirectory = directory + "/state"
    let lines = CollectedLog()
    let harness = try EmulatorHarness(
      configuration: configuration, linkPath: link,
      log: Log(level: .warning) { lines.append($0) })
    defer { harness.stop() }
    #expect(lines.count(containing: "CFG-NAVSPG-DYNMODEL") == 1)
    #expect(lines.contains("\(path):2: item '20110021' (CFG-NAVSPG-DYNMODEL): value 99"))
    #expect(harness.emulator.configurationInEffect.cadence == (try CadencePlan(rateHz: 5)))
  }
}
