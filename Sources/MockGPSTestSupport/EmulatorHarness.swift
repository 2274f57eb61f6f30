import DeviceRuntime
import DeviceTerminal
import Foundation
import Glibc
import MockGPS
import Simulation
import SystemIO
import TestFixtures

/// An emulated receiver for a Swift test, in-process, on a temporary link, on a manual clock:
/// the `CLLocationManagerFake` idea brought to a serial device. Nothing is sent by itself: the
/// test sets the position, fix and faults (through `emulator`), then `step()` runs the next
/// epoch and its whole burst and returns exactly the bytes written to the device. No sleeping,
/// no wall clock: the only waits are for the kernel (a client's open to be seen, written bytes
/// to reach the client), each bounded.
///
/// ```swift
/// let harness = try EmulatorHarness()
/// defer { harness.stop() }
/// harness.emulator.setPosition(GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35))
/// let bytes = try harness.step()  // one epoch, as a client of the device read it
/// ```
public final class EmulatorHarness {
  /// Why a step could not be taken.
  public struct StepError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The UTC time of the emulator; `step()` moves it.
  public let clock: ManualClock
  /// The manual runtime the emulator runs on.
  public let runtime: EmulatorRuntime
  /// The emulator: change its position, scene or source between steps.
  public let emulator: Emulator
  /// The temporary folder holding the link, removed by `stop()`.
  public let directory: String
  /// The client the harness holds, which reads what `step()` returns; nil without one.
  private var client: DeviceReader?
  /// How long a wait for the kernel may take before it is an error.
  private let kernelTimeoutNanoseconds: Int64 = 5_000_000_000

  /// The device's link.
  public var linkPath: String { emulator.link.path }

  /// Starts an emulator of `configuration` (its link is replaced by `linkPath`, by default one
  /// in a temporary folder, readable by this user only) with the clock at `start`; by default at
  /// the first second of 2026, half a second before an epoch.
  ///
  /// With `holdsClient` (the default), the harness opens the device as a client and waits until
  /// the emulator has seen it, so that `step()` returns what was written. Without, the test
  /// opens the link with a client of its own and calls `waitForClient()`.
  ///
  /// By default (`device` `.memory`) the device is a `MemoryLine`: no pseudo-terminal, no
  /// kernel, no wait; the harness's client is the line's, opened at once (`openClient()`,
  /// `closeClient()`). `.pseudoTerminal` is for what the kernel decides: a client of the test's
  /// own opening the link, reads shorter than what was written, a speed the terminal garbles.
  public convenience init(
    configuration: EmulatorConfiguration = EmulatorConfiguration(),
    start: UTCInstant = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_500_000_000),
    holdsClient: Bool = true, linkPath: String? = nil, device: Device = .memory,
    log: Log = Log(level: .warning)
  ) throws {
    try self.init(
      configuration: configuration, start: start, holdsClient: holdsClient, linkPath: linkPath,
      device: device
    ) { settings, runtime in
      try Emulator(configuration: settings, log: log, runtime: runtime)
    }
  }

  /// Starts the emulator `makeEmulator` makes of `configuration` (its link, group and mode
  /// set as the other initializer says) on the harness's manual runtime; the rest as there.
  init(
    configuration: EmulatorConfiguration, start: UTCInstant, holdsClient: Bool,
    linkPath: String?, device: Device = .memory,
    makeEmulator: (EmulatorConfiguration, EmulatorRuntime) throws -> Emulator
  ) throws {
    clock = ManualClock(start)
    runtime = try EmulatorRuntime(manualClock: clock, devicesInMemory: device == .memory)
    directory = NSTemporaryDirectory() + "mockgps-harness-\(UUID().uuidString)"
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      var settings = configuration
      settings.linkPath = linkPath ?? directory + "/gps"
      settings.groupName = nil
      settings.mode = 0o600
      emulator = try makeEmulator(settings, runtime)
      try emulator.start()
    } catch {
      runtime.stop()
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    guard holdsClient, device == .pseudoTerminal else {
      client = nil
      if holdsClient { emulator.device.openMemoryClient() }
      return
    }
    do {
      client = try DeviceReader(path: emulator.link.path)
      try waitForClient()
    } catch {
      stop()
      throw error
    }
  }

  /// Waits until the emulator has seen one more client open the device than before the
  /// harness started (its power-up sentences, if any, leave with the next step). Bounded.
  public func waitForClient(arrivals: Int = 1) throws {
    try waitUntil("the emulator did not see the client open the device") {
      emulator.clientArrivals >= arrivals
    }
  }

  /// Epochs the device has dealt with: sent, dropped or skipped.
  private var epochsDealtWith: Int {
    let statistics = emulator.statistics
    return statistics.epochsSent + statistics.epochsWithoutClient + statistics.epochsOverrun
      + statistics.epochsLate + statistics.burstsCut
  }

  /// Runs what is due now, then moves the clock from deadline to deadline until the next
  /// epoch and its whole burst have been dealt with; returns how many bytes were written to the
  /// device meanwhile (replies and power-up sentences included).
  @discardableResult
  public func stepWithoutReading() throws -> Int {
    let epochsBefore = epochsDealtWith
    let bytesBefore = emulator.statistics.bytesSent
    runtime.runDue()
    while epochsDealtWith == epochsBefore {
      guard let next = runtime.nextDeadlineNanoseconds else {
        throw StepError(description: "the emulator is not running")
      }
      // Woken by the I/O thread when the client reads, not by the clock.
      guard next < Int64.max else {
        throw StepError(description: "the emulator waits for the client to read")
      }
      clock.set(UTCInstant(nanosecondsSinceEpoch: max(next, clock.now().nanoseconds)))
      runtime.runDue()
    }
    return emulator.statistics.bytesSent - bytesBefore
  }

  /// Runs the next epoch and its whole burst, and returns exactly the bytes written to the
  /// device meanwhile, as the harness's client read them.
  public func step() throws -> [UInt8] {
    if let memoryLine = emulator.device.memoryLine {
      return try read(stepWithoutReading(), from: memoryLine)
    }
    guard let client else {
      throw StepError(description: "the harness holds no client: use stepWithoutReading()")
    }
    let count = try stepWithoutReading()
    return try read(count, from: client.descriptor)
  }

  /// Sets the speed of the harness's client's terminal to any Linux speed (0: `B0`).
  public func setClientSpeed(_ bitsPerSecond: Int) throws {
    if let memoryLine = emulator.device.memoryLine {
      return memoryLine.setClientSpeed(bitsPerSecond)
    }
    guard let client else { throw StepError(description: "the harness holds no client") }
    try client.setLineSpeed(bitsPerSecond)
  }

  /// Reads exactly `count` bytes written to the device, as the harness's client reads them:
  /// for a test that moves the clock itself (`clock`, `runtime.runDue()`).
  public func read(_ count: Int) throws -> [UInt8] {
    if let memoryLine = emulator.device.memoryLine { return try read(count, from: memoryLine) }
    guard let client else { throw StepError(description: "the harness holds no client") }
    return try read(count, from: client.descriptor)
  }

  /// `step()` as text.
  public func stepText() throws -> String {
    String(decoding: try step(), as: UTF8.self)
  }

  /// Writes bytes to the device as its client would (commands to the receiver) and waits
  /// (bounded) until the emulator has read `commands` of them and queued `expectingReplies`
  /// replies and applied `expectingRestarts` restarts: these show from the next step.
  public func send(
    _ text: String, commands: Int = 1, expectingReplies: Int = 0, expectingRestarts: Int = 0
  ) throws {
    try send(
      bytes: Array(text.utf8), commands: commands, expectingReplies: expectingReplies,
      expectingRestarts: expectingRestarts)
  }

  /// `send(_:)` of bytes: binary commands (UBX frames, SiRF packets).
  public func send(
    bytes: [UInt8], commands: Int = 1, expectingReplies: Int = 0, expectingRestarts: Int = 0
  ) throws {
    let received = emulator.statistics.commandsReceived + commands
    let replies = emulator.repliesQueued + expectingReplies
    let restarts = emulator.restartsApplied + expectingRestarts
    try clientWrites(bytes)
    try waitUntil("the emulator did not read the command") {
      emulator.statistics.commandsReceived >= received
    }
    try waitUntil("the emulator did not answer the command") {
      emulator.repliesQueued >= replies
    }
    try waitUntil("the emulator did not restart the chip") {
      emulator.restartsApplied >= restarts
    }
  }

  /// Writes the first bytes of a command, and waits until the emulator has read them (a
  /// command split across writes, as a slow client sends it).
  public func send(incomplete bytes: [UInt8]) throws {
    let received = emulator.statistics.clientBytesReceived + bytes.count
    try clientWrites(bytes)
    try waitUntil("the emulator did not read the bytes") {
      emulator.statistics.clientBytesReceived >= received
    }
  }

  /// Writes `bytes` as the harness's client: to its terminal, or handed to the memory line's
  /// device at once.
  private func clientWrites(_ bytes: [UInt8]) throws {
    if emulator.device.memoryLine != nil {
      guard emulator.device.hasClients else {
        throw StepError(description: "the memory line's client is closed")
      }
      return emulator.device.writeFromMemoryClient(bytes)
    }
    guard let client else { throw StepError(description: "the harness holds no client") }
    try client.write(bytes: bytes)
  }

  /// Waits until `condition` holds, for the kernel or the emulator's I/O thread; bounded.
  private func waitUntil(_ failure: String, _ condition: () -> Bool) throws {
    let deadline = SystemClock.monotonicNanoseconds() + kernelTimeoutNanoseconds
    while !condition() {
      guard SystemClock.monotonicNanoseconds() < deadline else {
        throw StepError(description: failure)
      }
      usleep(1000)
    }
  }

  /// Reads exactly `count` bytes written to the device; the kernel hands them over a moment
  /// after they are written.
  private func read(_ count: Int, from descriptor: borrowing FileDescriptor) throws -> [UInt8] {
    var bytes: [UInt8] = []
    let deadline = SystemClock.monotonicNanoseconds() + kernelTimeoutNanoseconds
    while bytes.count < count {
      // No more than asked for: bytes written later are the next read's (a CI run read the
      // tail of an epoch with the one before, when both had reached the terminal).
      var buffer = [UInt8](repeating: 0, count: min(4096, count - bytes.count))
      let remaining = deadline - SystemClock.monotonicNanoseconds()
      guard remaining > 0 else {
        throw StepError(description: "read \(bytes.count) of the \(count) bytes written")
      }
      let ready = try Poll.wait(
        [descriptor.pollRequest(.readable)],
        timeoutMilliseconds: Int32(min(remaining / 1_000_000 + 1, 1000)))
      guard ready.first?.contains(.readable) == true,
        case .transferred(let got) = try descriptor.read(into: &buffer)
      else { continue }
      bytes += buffer.prefix(got)
    }
    return bytes
  }

  /// Stops the emulator and the runtime, closes the client and removes the folder; any number
  /// of times.
  public func stop() {
    emulator.stop()
    runtime.stop()
    client = nil
    try? FileManager.default.removeItem(atPath: directory)
  }
}
