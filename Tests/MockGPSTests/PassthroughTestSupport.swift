import DeviceRuntime
import Foundation
import Geodesy
import Glibc
import MockGPS
import MockGPSTestSupport
import Replay
import Synchronization
import SystemIO
import TestFixtures

/// The passthrough suites bound each test to 5 minutes: a bound for hangs, not for speed. A
/// test's time counts from when it is scheduled, and Swift Testing's pool has as many threads
/// as cores (2 here), which the long gpsd tests of a full run hold for minutes: a 1-minute bound
/// failed six tests that each ran in seconds (in a clean clone, all six "after 229 s").
///
/// A passthrough under test: a `FakeReceiver` as the real receiver, an `Emulator` passing it
/// through to a link, both in a temporary folder, closed by `stop()`.
final class PassthroughRig {
  let directory: String
  let receiver: FakeReceiver
  let emulator: Emulator
  let log = PassthroughLog()
  var linkPath: String { emulator.link.path }

  /// Starts the receiver at `baud`, then mockgps passing it through with `override`, at that
  /// baud or, with `findsBaud`, finding it; `configure` adds to its configuration. The emulator
  /// runs on `runtime` (stop the rig before it), or on one of its own.
  init(
    override: PassthroughSettings.OverrideMode = .off, offset: PassthroughSettings.Offset? = nil,
    position: GeodeticPosition = EmulatorConfiguration.defaultPosition, baud: Int = 9600,
    findsBaud: Bool = false, runtime: EmulatorRuntime? = nil,
    configure: (inout EmulatorConfiguration) -> Void = { _ in }
  ) throws {
    directory = NSTemporaryDirectory() + "mockgps-passthrough-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    receiver = try FakeReceiver(linkPath: directory + "/ttyRECEIVER", baud: baud)
    var configuration = EmulatorConfiguration(
      linkPath: directory + "/ttyMOCKGPS", source: .fixed(position), groupName: nil)
    configuration.passthrough = PassthroughSettings(
      target: .path(receiver.linkPath), baud: findsBaud ? nil : baud, override: override,
      offset: offset,
      replacesAltitude: true)
    configure(&configuration)
    let collected = log
    do {
      emulator = try Emulator(
        configuration: configuration,
        log: Log(level: .debug, sink: { line in collected.append(line) }), runtime: runtime)
      try emulator.start()
    } catch {
      receiver.close()
      throw error
    }
  }

  /// Opens the link as a client and waits until mockgps has seen it (up to 2 s).
  func openClient() throws -> DeviceReader {
    let client = try DeviceReader(path: linkPath)
    let deadline = DeviceReader.monotonicNanoseconds() + 2_000_000_000
    while !emulator.device.hasClients, DeviceReader.monotonicNanoseconds() < deadline {
      usleep(5_000)
    }
    return client
  }

  func stop() {
    emulator.stop()
    receiver.close()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The bytes of a corpus log as `ReplayReader` frames them, epoch by epoch.
  static func epochs(ofLog name: String) throws -> [[UInt8]] {
    let reader = try ReplayReader(path: try Fixtures.gpsdLog(name).path)
    var epochs: [[UInt8]] = []
    while let epoch = try reader.next() { epochs.append(epoch.bytes) }
    return epochs
  }

  /// Sends `epochs` from the receiver on a thread of their own, `gapMicroseconds` apart, or,
  /// with `lineBaud`, each after the time a line at that speed takes to carry it, as a real
  /// receiver sends them.
  func feed(_ epochs: [[UInt8]], gapMicroseconds: UInt32 = 0, lineBaud: Int? = nil) {
    let receiver = self.receiver
    Thread {
      for epoch in epochs {
        receiver.send(epoch)
        let lineMicroseconds = lineBaud.map { epoch.count * 10_000_000 / $0 } ?? 0
        usleep(max(gapMicroseconds, UInt32(lineMicroseconds)))
      }
    }.start()
  }

  /// Waits until `condition` holds, up to `seconds`; returns whether it did.
  static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    Eventually.holds(within: seconds, intervalMicroseconds: 5_000, condition)
  }
}

/// The lines a passthrough logged.
final class PassthroughLog: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  func contains(_ text: String) -> Bool { count(of: text) > 0 }
  /// How many lines contain `text`.
  func count(of text: String) -> Int {
    lines.withLock { $0.count { $0.contains(text) } }
  }
}

extension DeviceReader {
  /// Reads raw bytes until `count` have arrived or `seconds` pass without the count reached.
  func readBytes(_ count: Int, timeoutSeconds: Double) -> [UInt8] {
    let deadline = Self.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while result.count < count, Self.monotonicNanoseconds() < deadline {
      let ready = (try? Poll.wait([descriptor.pollRequest(.readable)], timeoutMilliseconds: 50))
      guard ready?.first?.contains(.readable) == true,
        case .transferred(let got) = (try? descriptor.read(into: &buffer)) ?? .wouldBlock
      else { continue }
      result += buffer.prefix(got)
    }
    return result
  }

  /// Writes all of `bytes`, as a client does.
  func write(_ bytes: [UInt8]) {
    var remaining = bytes[...]
    while !remaining.isEmpty, case .transferred(let count) = (try? descriptor.write(remaining)) {
      remaining = remaining.dropFirst(count)
    }
  }
}
