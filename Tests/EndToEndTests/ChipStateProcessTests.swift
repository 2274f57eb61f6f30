import Foundation
import Glibc
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing
import UBX

/// `--state-dir` across two runs of the process, as a chip keeps its flash across power
/// cycles: run 1 is set to 5 Hz, saves with CFG-CFG and is killed (SIGKILL, a power cut: the
/// file must already be written); run 2 starts at 5 Hz and its CFG-RATE poll answers 200 ms.
/// A hostile or corrupt state directory is refused at start with one line and 65 or 66.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct ChipStateProcessTests {
  static let fiveHertz = UBXNavigationRate(
    measurementPeriodMilliseconds: 200, measurementsPerEpoch: 1)
  /// CFG-CFG saving every section to every layer, as `ubxtool -p SAVE` sends it.
  static let save = UBXStorageCommand(save: UBXConfigurationSections(rawValue: 0x1F1F)).frame

  /// A state directory as an operator makes one, mode 0700; its state file for `link`.
  static func stateDirectory(in scratch: ScratchDirectory, link: String) throws -> (
    String, String
  ) {
    let directory = scratch.path + "/state"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    chmod(directory, 0o700)
    return (directory, directory + "/" + link.dropFirst().replacing("/", with: "+") + ".state")
  }

  /// Reads the device until the UBX frames read hold what `done` asks for, at most `seconds`.
  static func frames(
    from device: DeviceReader, seconds: Double, until done: ([UBXFrame]) -> Bool
  ) -> [UBXFrame] {
    let deadline = DeviceReader.monotonicNanoseconds() + Int64(seconds * 1e9)
    var demultiplexer = InputDemultiplexer()
    var frames: [UBXFrame] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !done(frames), DeviceReader.monotonicNanoseconds() < deadline {
      guard
        case .transferred(let count) = (try? device.descriptor.read(into: &buffer)) ?? .wouldBlock,
        count > 0
      else {
        usleep(10_000)
        continue
      }
      for case .ubx(let frame) in demultiplexer.append(Array(buffer.prefix(count))) {
        frames.append(frame)
      }
    }
    return frames
  }

  /// True when `frames` acknowledge every message of `sent`.
  static func acknowledge(_ frames: [UBXFrame], all sent: [UBXFrame]) -> Bool {
    let acknowledged = frames.filter { $0.messageType == .ackACK }.map(\.payload)
    return sent.allSatisfy { acknowledged.contains([$0.messageClass, $0.messageType.id]) }
  }

  @Test(arguments: ["ublox-m8", "ublox-f9p"])
  func aSaveSurvivesAKillAndIsTheNextRunsPowerUpSetting(_ name: String) throws {
    let scratch = try ScratchDirectory("state-\(name)")
    defer { scratch.remove() }
    let link = scratch.path + "/tty"
    let (stateDirectory, stateFile) = try Self.stateDirectory(in: scratch, link: link)
    let arguments = [
      "--link", link, "--profile", name, "--baud", "115200", "--state-dir", stateDirectory,
    ]
    do {
      let (first, _) = try MockGPSBinary.start(arguments)
      defer { first.kill() }
      let device = try DeviceReader(path: link)
      _ = device.readUntil(type: "GGA", timeoutSeconds: 3)
      let sent = [Self.fiveHertz.frame, Self.save]
      _ = try device.descriptor.write(sent.flatMap(\.bytes)[...])
      let answers = Self.frames(from: device, seconds: 5) { Self.acknowledge($0, all: sent) }
      #expect(Self.acknowledge(answers, all: sent), "\(answers.map(\.messageType))")
      // Like flash, the file holds the save soon after it, not only at a clean exit.
      let written = first.wait(seconds: 5) {
        (try? String(contentsOfFile: stateFile, encoding: .utf8))?.contains(" 06-08/0000 ") == true
      }
      #expect(written)
      first.signal(SIGKILL)
      #expect(first.exitStatus(within: 5) == 128 + SIGKILL)
    }  // The device is closed here, so the next run may replace the link the kill left.
    var status = stat()
    #expect(lstat(stateFile, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFREG)
    #expect(status.st_mode & 0o7777 == 0o600)
    let text = try String(contentsOfFile: stateFile, encoding: .utf8)
    #expect(text.hasPrefix("mockgps-chip-state 1 \(name)\n"))
    #expect(text.contains("flash 06-08/0000 c80001000100\n"))

    let (second, _) = try MockGPSBinary.start(arguments)
    defer { second.kill() }
    // The start line says the rate the saved memory set, not the factory's.
    #expect(second.standardOutput.contains("(\(name) at 5 Hz, 115200 baud, "))
    let device = try DeviceReader(path: link)
    _ = device.readUntil(type: "GGA", timeoutSeconds: 3)
    // Two epochs 0.2 s apart at 5 Hz, 1 s at the factory rate.
    let next = device.readUntil(type: "GGA", timeoutSeconds: 3)
    let after = device.readUntil(type: "GGA", timeoutSeconds: 3)
    let seconds = [next, after].compactMap { $0 }.map { Double($0.arrivalNanoseconds) / 1e9 }
    let intervals = zip(seconds, seconds.dropFirst()).map { $1 - $0 }
    #expect(intervals.count == 1 && intervals.allSatisfy { $0 < 0.6 }, "\(intervals) s")
    _ = try device.descriptor.write(UBXFrame(.cfgRATE).bytes[...])
    let polled = Self.frames(from: device, seconds: 5) { frames in
      frames.contains { $0.messageType == .cfgRATE }
    }
    #expect(polled.first { $0.messageType == .cfgRATE }?.payload == Self.fiveHertz.frame.payload)
    second.signal(SIGTERM)
    #expect(second.exitStatus(within: 5) == 0)
  }

  /// A state directory or file that others could have placed or changed under a mockgps that
  /// runs as root, or a file that is no state of this chip.
  struct Hostile: CustomTestStringConvertible, Sendable {
    var name: String
    /// Prepares the directory and file (neither exists yet); returns the expected message.
    var prepare: @Sendable (_ directory: String, _ file: String) throws -> String
    var exitStatus: Int32
    var testDescription: String { name }
  }

  static let hostileCases: [Hostile] = [
    Hostile(
      name: "a symbolic link at the state file's name",
      prepare: { directory, file in
        try makeDirectory(directory, mode: 0o700)
        try "keep\n".write(toFile: directory + "/target", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
          atPath: file, withDestinationPath: directory + "/target")
        return "\(file): a symbolic link (expected a regular file)"
      }, exitStatus: 65),
    Hostile(
      name: "a directory anyone may write to",
      prepare: { directory, _ in
        try makeDirectory(directory, mode: 0o1777)
        return "\(directory): mode 1777 (expected no group or other write permission)"
      }, exitStatus: 66),
    Hostile(
      name: "a state file others may write",
      prepare: { directory, file in
        try makeDirectory(directory, mode: 0o700)
        try makeFile(file, "mockgps-chip-state 1 ublox-m8\n", mode: 0o666)
        return "\(file): mode 0666 (expected no group or other write permission)"
      }, exitStatus: 65),
    Hostile(
      name: "a corrupt record",
      prepare: { directory, file in
        try makeDirectory(directory, mode: 0o700)
        try makeFile(file, "mockgps-chip-state 1 ublox-m8\nflash 06-08/0000 c8000100\n")
        return "\(file):2: item '06-08/0000': 4 bytes at instance 0 (expected 6 at instance 0)"
      }, exitStatus: 65),
    Hostile(
      name: "another profile's state",
      prepare: { directory, file in
        try makeDirectory(directory, mode: 0o700)
        try makeFile(file, "mockgps-chip-state 1 ublox-f9p\n")
        return "\(file):1: written by profile 'ublox-f9p' (expected 'ublox-m8'; "
          + "remove the file to start from the factory settings)"
      }, exitStatus: 65),
    Hostile(
      name: "not a state file at all",
      prepare: { directory, file in
        try makeDirectory(directory, mode: 0o700)
        try makeFile(file, "\u{7F}ELF\u{2}\u{1}\u{1}\n")
        return "\(file):1: not a chip state file (expected 'mockgps-chip-state 1 ublox-m8')"
      }, exitStatus: 65),
  ]

  static func makeDirectory(_ path: String, mode: mode_t) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    chmod(path, mode)
  }

  static func makeFile(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, mode)
  }

  @Test(arguments: hostileCases)
  func aHostileOrCorruptStateIsRefusedAtStartWithOneLine(_ hostile: Hostile) throws {
    let scratch = try ScratchDirectory("state-hostile")
    defer { scratch.remove() }
    let link = scratch.path + "/tty"
    let directory = scratch.path + "/state"
    let file = directory + "/" + link.dropFirst().replacing("/", with: "+") + ".state"
    let message = try hostile.prepare(directory, file)
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", link, "--profile", "ublox-m8", "--state-dir", directory,
    ])
    #expect(status == hostile.exitStatus)
    #expect(errors == message + "\n")
    #expect(!FileManager.default.fileExists(atPath: link))
    if FileManager.default.fileExists(atPath: directory + "/target") {
      #expect(try String(contentsOfFile: directory + "/target", encoding: .utf8) == "keep\n")
    }
  }

  /// Run as root: a directory of another user is refused, whatever its mode.
  @Test(.enabled(if: geteuid() == 0)) func aDirectoryOfAnotherUserIsRefused() throws {
    let scratch = try ScratchDirectory("state-owner")
    defer { scratch.remove() }
    let link = scratch.path + "/tty"
    let directory = scratch.path + "/state"
    try Self.makeDirectory(directory, mode: 0o700)
    #expect(chown(directory, 65_534, 65_534) == 0)
    let (status, _, errors) = try MockGPSBinary.run([
      "run", "--link", link, "--profile", "ublox-m8", "--state-dir", directory,
    ])
    #expect(status == 66)
    #expect(errors == "\(directory): owned by user 65534 (expected root)\n")
  }
}
