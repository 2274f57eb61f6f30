import DeviceRuntime
import DeviceTerminal
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Replay
import SystemIO
import TestFixtures
import Testing

/// A terminal is ours or untouched, on every path that opens one: each is given a link left
/// behind by a killed owner whose pseudo-terminal number another program has taken since
/// (`TerminalIdentity.ownership` decides for all of them; the passthrough's reconnection is
/// `PassthroughForeignTerminalTests`).
@Suite(.serialized) struct TerminalOwnershipTests {
  let directory: String

  init() throws {
    directory = NSTemporaryDirectory() + "mockgps-ownership-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

  /// The abandoned link and the stranger now holding its number.
  func strangerBehindAbandonedLink(_ name: String) throws -> (String, StrangerTerminal) {
    let link = directory + "/" + name
    let (_, stranger) = try #require(
      try StrangerTerminal.behindAbandonedLink(at: link),
      "every number freed was taken by another test first")
    return (link, stranger)
  }

  @Test func runReplacesTheAbandonedLinkAndLeavesTheStrangersTerminalAlone() throws {
    defer { cleanUp() }
    let (link, stranger) = try strangerBehindAbandonedLink("ttyRUN")
    defer { stranger.close() }
    let flags = stranger.localFlags()
    let configuration = EmulatorConfiguration(
      linkPath: link, source: .fixed(EmulatorConfiguration.defaultPosition),
      cadence: try CadencePlan(rateHz: 5), pacing: try BytePacing(baud: 115_200), groupName: nil)
    let emulator = try Emulator(
      configuration: configuration, log: Log(level: .error, sink: { _ in }))
    try emulator.start()
    defer { emulator.stop() }
    #expect(emulator.link.target != stranger.slavePath)
    guard case .link(let target, true) = DeviceLink.inspect(link) else {
      Issue.record("no link at \(link)")
      return
    }
    #expect(target == emulator.link.target)
    usleep(300_000)
    #expect(stranger.bytesReceived().isEmpty, "epochs went to the stranger's terminal")
    #expect(stranger.localFlags() == flags)
  }

  @Test func aLiveLinkMadeAfterItsTerminalIsStillRefused() throws {
    defer { cleanUp() }
    let owner = try PseudoTerminal.open(baud: 9600)
    let link = directory + "/ttyLIVE"
    #expect(symlink(owner.slavePath, link) == 0)
    #expect(throws: DeviceLink.CreationError.self) {
      try DeviceLink.create(at: link, pointingTo: "/dev/pts/999999")
    }
    #expect(readLink(link) == owner.slavePath)
  }

  @Test func recordRefusesTheStrangersTerminal() throws {
    defer { cleanUp() }
    let (link, stranger) = try strangerBehindAbandonedLink("ttyREC")
    defer { stranger.close() }
    let flags = stranger.localFlags()
    let out = directory + "/out.rec"
    #expect {
      _ = try TerminalRecorder(devicePath: link, outputPath: out, baud: 4800, overwrite: false)
    } throws: { error in
      guard case .foreignTerminal(link, let reason)? = error as? TerminalRecorder.SetupError else {
        return false
      }
      return reason.contains("taken by another program")
    }
    #expect(stranger.localFlags() == flags, "the stranger's terminal was set raw")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func recordOpensALinkMadeAfterItsTerminal() throws {
    defer { cleanUp() }
    let owner = try PseudoTerminal.open(baud: 9600)
    let link = directory + "/ttyOWN"
    #expect(symlink(owner.slavePath, link) == 0)
    _ = try TerminalRecorder(
      devicePath: link, outputPath: directory + "/out.rec", baud: nil, overwrite: false)
  }

  /// A record that refuses its output file leaves the terminal as it was: a port gpsd reads at
  /// 9600 baud was left raw at 4800 by a refused `record --baud 4800`.
  @Test func recordThatRefusesItsOutputLeavesTheTerminalAlone() throws {
    defer { cleanUp() }
    let owner = try PseudoTerminal.open(baud: 9600)
    let link = directory + "/ttyKEEP"
    #expect(symlink(owner.slavePath, link) == 0)
    let slave = try FileDescriptor.open(owner.slavePath, flags: O_RDWR | O_NOCTTY | O_NONBLOCK)
    var cooked = try TerminalAttributes.read(from: slave)
    cooked.setSpeed(baud: 38400)
    try cooked.apply(to: slave)
    let before = try TerminalAttributes.read(from: slave)
    let existing = directory + "/exists.rec"
    #expect(FileManager.default.createFile(atPath: existing, contents: Data("kept\n".utf8)))
    #expect(throws: TerminalRecorder.SetupError.outputExists(path: existing)) {
      _ = try TerminalRecorder(devicePath: link, outputPath: existing, baud: 4800, overwrite: false)
    }
    let unwritable = directory + "/no-such-folder/out.rec"
    #expect {
      _ = try TerminalRecorder(
        devicePath: link, outputPath: unwritable, baud: 4800, overwrite: true)
    } throws: { error in
      guard case .cannotCreate? = error as? TerminalRecorder.SetupError else { return false }
      return true
    }
    let after = try TerminalAttributes.read(from: slave)
    #expect(after.baud == 38400)
    #expect(after.raw.c_lflag == before.raw.c_lflag && after.raw.c_iflag == before.raw.c_iflag)
    #expect(FileManager.default.contents(atPath: existing) == Data("kept\n".utf8))
    // Overwriting: the old content goes once the terminal is set.
    _ = try TerminalRecorder(devicePath: link, outputPath: existing, baud: 4800, overwrite: true)
    let recorded = String(
      decoding: FileManager.default.contents(atPath: existing) ?? Data(), as: UTF8.self)
    #expect(recorded.hasPrefix(RecordingFormat.magic) && !recorded.contains("kept"))
    #expect(try TerminalAttributes.read(from: slave).baud == 4800)
    // Not a file to empty: /dev/null takes the recording as it took it before.
    _ = try TerminalRecorder(devicePath: link, outputPath: "/dev/null", baud: nil, overwrite: true)
  }

  private func readLink(_ path: String) -> String? {
    guard case .link(let target, _) = DeviceLink.inspect(path) else { return nil }
    return target
  }
}
