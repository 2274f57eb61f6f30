import DeviceRuntime
import Foundation
import Geodesy
import Glibc
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Collects the commands a client writes.
final class RecordingHandler: ReceiverCommandHandler {
  let commands = Mutex<[String]>([])
  func handle(_ message: ClientMessage) -> [ReceiverEffect] {
    commands.withLock { $0.append(message.description) }
    return []
  }
}

/// The lines an emulator logged.
final class CollectedLog: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  func contains(_ text: String) -> Bool { lines.withLock { $0.contains { $0.contains(text) } } }
  func count(containing text: String) -> Int {
    lines.withLock { $0.filter { $0.contains(text) }.count }
  }
}

/// An emulator on a unique link in a temporary folder, stopped at the end of the test.
final class RunningEmulator {
  let emulator: Emulator
  let directory: String
  let log = CollectedLog()
  var linkPath: String { emulator.link.path }

  /// Starts an emulator; `scene`, when given, replaces the fixed position before the first
  /// epoch.
  init(
    rateHz: Double, baud: Int, handler: (any ReceiverCommandHandler)? = nil,
    position: GeodeticPosition = EmulatorConfiguration.defaultPosition, timeScale: Double = 1,
    startTime: UTCInstant? = nil, scene: Scene? = nil, profile: ReceiverProfile = .generic
  ) throws {
    directory = NSTemporaryDirectory() + "mockgps-device-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let configuration = EmulatorConfiguration(
      linkPath: directory + "/ttyMOCKGPS", source: .fixed(position),
      cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: baud),
      timeScale: timeScale, startTime: startTime, profile: profile)
    let collected = log
    emulator = try Emulator(
      configuration: configuration,
      log: Log(level: .debug, sink: { line in collected.append(line) }),
      commandHandler: handler)
    if let scene { emulator.setScene(scene) }
    try emulator.start()
  }

  func stop() {
    emulator.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Waits up to `seconds` until `condition` holds; returns whether it did.
  @discardableResult
  func wait(seconds: Double = 5, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 5000, condition)
  }

  /// Waits until the emulator has seen a client arrive `count` times.
  func waitForConnections(_ count: Int) {
    wait { emulator.statistics.connections >= count }
  }
}

@Suite(.blocking, .serialized) struct EmulatorDeviceTests {
  @Test func anEmulatorStoppedBeforeItStartedRemovesItsLinkAtOnce() throws {
    let directory = NSTemporaryDirectory() + "mockgps-unstarted-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let emulator = try Emulator(
      configuration: EmulatorConfiguration(linkPath: directory + "/tty"), log: Log(level: .quiet))
    #expect(FileManager.default.fileExists(atPath: directory + "/tty"))
    emulator.stop()
    #expect(!FileManager.default.fileExists(atPath: directory + "/tty"))
  }

  @Test func aRemovedLinkComesBackAndAReplacedOneIsLeftAlone() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    let target = running.emulator.link.target
    try FileManager.default.removeItem(atPath: running.linkPath)
    _ = Eventually.holds(within: 3, intervalMicroseconds: 10_000) {
      FileManager.default.fileExists(atPath: running.linkPath)
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: running.linkPath) == target)
    // Replace it in one step (rename does not follow the link), as another program would.
    let other = running.directory + "/other"
    try "someone else's".write(toFile: other, atomically: false, encoding: .utf8)
    #expect(rename(other, running.linkPath) == 0)
    #expect(running.wait { running.log.contains("replaced") })
    #expect(try String(contentsOfFile: running.linkPath, encoding: .utf8) == "someone else's")
  }

  /// A link replaced by another link (to elsewhere) is someone else's too: the guard's quick
  /// look (is it still the entry it last found?) sees a new entry and looks again, whether the
  /// new link was renamed over it (a new inode) or removed and made again (ext4 then gives it
  /// the same inode number: its change time and size tell it apart).
  @Test(arguments: [false, true])
  func aLinkReplacedByAnotherLinkIsLeftAlone(removedFirst: Bool) throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    // Let the guard find its link in place (its checks run after epochs, once a second).
    usleep(1_200_000)
    if removedFirst {
      #expect(unlink(running.linkPath) == 0)
      #expect(symlink("/dev/null", running.linkPath) == 0)
    } else {
      let other = running.directory + "/other"
      #expect(symlink("/dev/null", other) == 0)
      #expect(rename(other, running.linkPath) == 0)
    }
    #expect(running.wait { running.log.contains("replaced") })
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: running.linkPath) == "/dev/null")
  }

  @Test func timeFieldsAreTheScheduledEpochsOnTheUTCGrid() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    var times: [Double] = []
    for _ in 0..<5 {
      let line = try #require(reader.readUntil(type: "GGA", timeoutSeconds: 3))
      let gga = try GGA(parsing: line.text)
      times.append(try #require(gga.time).secondsOfDay)
    }
    for time in times {
      let hundredths = (time * 100).rounded()
      #expect(Int(hundredths) % 10 == 0, "\(time) is not on the 100 ms grid")
    }
    for (a, b) in zip(times, times.dropFirst()) {
      #expect(abs((b - a) - 0.1) < 1e-6 || b < a)
    }
  }

  @Test func theEmittedPositionRoundTripsWithin2e7Degrees() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    let position = try GeodeticPosition(
      latitude: -33.856784, longitude: 151.215297, altitudeMeters: 4)
    running.emulator.setPosition(position)
    let reader = try DeviceReader(path: running.linkPath)
    _ = reader.readUntil(type: "ZDA", timeoutSeconds: 3)
    let gga = try GGA(parsing: try #require(reader.readUntil(type: "GGA", timeoutSeconds: 3)).text)
    #expect(abs(try #require(gga.latitude).degreesValue - position.latitude) <= 2e-7)
    #expect(abs(try #require(gga.longitude).degreesValue - position.longitude) <= 2e-7)
  }

  /// At 25 epochs a wire second the loop encodes each epoch while it waits for it: a position
  /// set during that wait must still be the one the epoch reports. A set that a loaded machine
  /// let finish only once the next epoch had been written (its bytes already wait in the
  /// terminal) is not judged and is tried again: that epoch may rightly have the old position
  /// (a full run beside two busy helpers once held the test's thread past it).
  @Test func aPositionSetWhileTheLoopWaitsIsInTheNextEpoch() throws {
    let running = try RunningEmulator(rateHz: 1, baud: 0, timeScale: 25)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    var judged = 0
    var late = 0
    while judged < 3, late < 20 {
      _ = try #require(reader.readUntil(type: "ZDA", timeoutSeconds: 3))
      usleep(5_000)
      let position = try GeodeticPosition(
        latitude: 48.858_37 + Double(judged + late) * 0.001, longitude: 2.294_481,
        altitudeMeters: 35)
      running.emulator.setPosition(position)
      guard !reader.hasUnreadOutput() else {
        late += 1
        continue
      }
      judged += 1
      let gga = try GGA(
        parsing: try #require(reader.readUntil(type: "GGA", timeoutSeconds: 3)).text)
      #expect(abs(try #require(gga.latitude).degreesValue - position.latitude) <= 2e-7)
      #expect(abs(try #require(gga.longitude).degreesValue - position.longitude) <= 2e-7)
    }
    #expect(judged == 3, "\(late) sets finished after the next epoch was written")
  }

  @Test func clientsOpenAndCloseManyTimesAndTheDeviceDoesNotSpinWhileNoneIsOpen() throws {
    let running = try RunningEmulator(rateHz: 20, baud: 0)
    defer { running.stop() }
    for round in 0..<25 {
      let reader = try DeviceReader(path: running.linkPath)
      if round % 5 == 0 { #expect(reader.readUntil(type: "RMC", timeoutSeconds: 2) != nil) }
    }
    #expect(running.wait { !running.emulator.device.hasClients })
    let before = running.emulator.statistics.ioWakeups
    usleep(1_000_000)
    // With no client the I/O thread sleeps in poll: a spin on hang-up would wake it thousands of
    // times a second.
    #expect(running.emulator.statistics.ioWakeups - before <= 2)
    let reader = try DeviceReader(path: running.linkPath)
    #expect(reader.readUntil(type: "GGA", timeoutSeconds: 2) != nil)
  }

  @Test func aNewClientGetsTheCurrentEpochNotWhatTheLastOneLeftUnread() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0)
    defer { running.stop() }
    do {
      let idle = try DeviceReader(path: running.linkPath)
      running.waitForConnections(1)
      // Epochs at the old place arrive and stay unread.
      #expect(running.wait { running.emulator.statistics.epochsSent >= 3 })
      _ = idle
    }
    #expect(running.wait { !running.emulator.device.hasClients })
    let moved = try GeodeticPosition(latitude: -33.856784, longitude: 151.215297, altitudeMeters: 4)
    running.emulator.setPosition(moved)
    let reader = try DeviceReader(path: running.linkPath)
    let line = try #require(reader.readUntil(type: "GGA", timeoutSeconds: 3))
    let gga = try GGA(parsing: line.text)
    #expect(abs(try #require(gga.latitude).degreesValue - moved.latitude) <= 2e-7)
  }

  @Test func aClientThatStopsReadingCostsWholeEpochsAndNeverSlowsTheEmulator() throws {
    let running = try RunningEmulator(rateHz: 20, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    running.waitForConnections(1)
    #expect(running.wait { running.emulator.statistics.epochsOverrun > 0 })
    // What was kept is whole epochs: every line is a complete, valid sentence.
    let lines = reader.readLines(60, timeoutSeconds: 3)
    #expect(lines.count == 60)
    for line in lines { _ = try NMEAMessage(parsing: line.text) }
  }

  @Test func bytesAClientWritesReachTheCommandHandler() throws {
    let handler = RecordingHandler()
    let running = try RunningEmulator(rateHz: 10, baud: 0, handler: handler)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    try reader.write("$PMTK605*31\r\n")
    for _ in 0..<200 where handler.commands.withLock({ $0.isEmpty }) { usleep(5000) }
    #expect(handler.commands.withLock { $0 } == ["$PMTK605*31"])
  }

  /// With ECHOCTL off the terminal sends our sentences back verbatim; with it on, as `^M^J`.
  @Test(arguments: [false, true])
  func theEmittersOwnEchoedSentencesAreNotTakenForCommands(echoControl: Bool) throws {
    let handler = RecordingHandler()
    let running = try RunningEmulator(rateHz: 10, baud: 0, handler: handler)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    var settings = try TerminalAttributes.read(from: reader.descriptor)
    settings.raw.c_lflag |= tcflag_t(ECHO)
    if echoControl {
      settings.raw.c_lflag |= tcflag_t(ECHOCTL)
    } else {
      settings.raw.c_lflag &= ~tcflag_t(ECHOCTL)
    }
    try settings.apply(to: reader.descriptor)
    _ = reader.readLines(30, timeoutSeconds: 3)
    try reader.write("$PMTK605*31\r\n")
    for _ in 0..<200 where handler.commands.withLock({ $0.isEmpty }) { usleep(5000) }
    #expect(handler.commands.withLock { $0 } == ["$PMTK605*31"])
    if !echoControl { #expect(running.emulator.statistics.echoesIgnored > 0) }
  }

  /// A reply comes back from an echoing client like the epochs do: recognised as echo, not
  /// taken for a command and answered again (an MTK chip answers `$PMTK605` with `$PMTK705`
  /// and acknowledges every `$PMTK` it is sent).
  @Test func anEchoedReplyIsNotAnsweredAgain() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0, profile: .mtk)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    var settings = try TerminalAttributes.read(from: reader.descriptor)
    settings.raw.c_lflag |= tcflag_t(ECHO)
    settings.raw.c_lflag &= ~tcflag_t(ECHOCTL)
    try settings.apply(to: reader.descriptor)
    _ = reader.readLines(30, timeoutSeconds: 3)
    try reader.write("$PMTK605*31\r\n")
    #expect(Eventually.holds(within: 5) { running.emulator.statistics.commandsReceived >= 1 })
    // Time for an echo loop to show: each round trip takes a few milliseconds.
    usleep(1_000_000)
    #expect(running.emulator.statistics.commandsReceived == 1)
  }
}
