import DeviceRuntime
import Foundation
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing

/// When the devices of one runtime encode their epochs, on the manual clock: never in front of
/// an epoch's own first write (at its deadline), at any wire rate. Found in review: above
/// 100 Hz on the wire the re-encoding spacing (10 ms) moved an encoding put off to the lead
/// onto the deadline.
@Suite(.blocking) struct FleetEncodingTimeTests {
  /// The encodings of a device's source: each epoch with the clock when it was encoded.
  final class EncodingLog: Sendable {
    let entries = Mutex<[(device: Int, epoch: Int64, at: Int64)]>([])
  }

  /// A source whose encodings are logged.
  struct LoggedSource: EpochSource {
    let device: Int
    let log: EncodingLog
    let clock: ManualClock
    func epoch(at time: UTCInstant) -> Epoch {
      let now = clock.now().nanoseconds
      log.entries.withLock { $0.append((device, time.nanoseconds, now)) }
      return Epoch(packets: [Array("$GPTXT,\(device)\r\n".utf8)])
    }
  }

  /// How many epochs of each device were first encoded at the instant of their own first
  /// write, of those written, for `count` devices at `rate` under `timeScale`, run deadline by
  /// deadline for `wireSeconds` from the next whole second.
  static func epochsEncodedAtTheirWrite(
    count: Int, rate: Double, timeScale: Double, wireSeconds: Double
  ) throws -> [(inFront: Int, written: Int)] {
    let second: Int64 = 1_000_000_000
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600 * second + 10))
    let runtime = try EmulatorRuntime(manualClock: clock)
    defer { runtime.stop() }
    let directory = NSTemporaryDirectory() + "mockgps-encoding-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = EncodingLog()
    var emulators: [Emulator] = []
    defer { for emulator in emulators { emulator.stop() } }
    for device in 0..<count {
      var configuration = EmulatorConfiguration(
        linkPath: directory + "/gps\(device)", cadence: try CadencePlan(rateHz: rate),
        pacing: try BytePacing(baud: 115_200), groupName: nil, mode: 0o600)
      configuration.timeScale = timeScale
      let emulator = try Emulator(
        configuration: configuration, log: Log(level: .quiet), runtime: runtime)
      emulators.append(emulator)
      try emulator.start()
      emulator.setSource(LoggedSource(device: device, log: log, clock: clock))
    }
    let readers = try emulators.map { try DeviceReader(path: $0.link.path) }
    #expect(Eventually.holds(within: 5) { emulators.allSatisfy(\.device.hasClients) })
    var writes = Array(repeating: [Int64](), count: count)
    var sent = emulators.map(\.statistics.bytesSent)
    // A scaled run starts at the next whole wire second.
    let end = (clock.now().nanoseconds / second + 1) * second + Int64(wireSeconds * 1e9)
    while clock.now().nanoseconds < end {
      let next = try #require(runtime.nextDeadlineNanoseconds)
      try #require(next < Int64.max, "every device waits for its client to read")
      clock.set(UTCInstant(nanosecondsSinceEpoch: max(next, clock.now().nanoseconds)))
      runtime.runDue()
      for (device, emulator) in emulators.enumerated()
      where emulator.statistics.bytesSent != sent[device] {
        writes[device].append(clock.now().nanoseconds)
        sent[device] = emulator.statistics.bytesSent
      }
      for reader in readers where reader.hasUnreadOutput() {
        _ = reader.readLines(1000, timeoutSeconds: 0.000_5)
      }
    }
    let entries = log.entries.withLock { $0 }
    return (0..<count).map { device in
      // Each epoch's first encoding, in the order of the epochs (those written in order).
      var first: [Int64: Int64] = [:]
      for entry in entries where entry.device == device && first[entry.epoch] == nil {
        first[entry.epoch] = entry.at
      }
      let encoded = first.sorted { $0.key < $1.key }.map(\.value)
      // The first two epochs: encoded as the source was set and the client came.
      let pairs = Array(zip(encoded, writes[device]).dropFirst(2))
      let inFront = pairs.filter { encoding, write in encoding == write }
      return (inFront: inFront.count, written: pairs.count)
    }
  }

  @Test(arguments: [(10.0, 1.0, 3.0), (20.0, 10.0, 1.0), (20.0, 50.0, 0.5)])
  func noEpochIsEncodedInFrontOfItsFirstWrite(rate: Double, timeScale: Double, seconds: Double)
    throws
  {
    let counts = try Self.epochsEncodedAtTheirWrite(
      count: 2, rate: rate, timeScale: timeScale, wireSeconds: seconds)
    for (inFront, written) in counts {
      #expect(written >= Int(rate * timeScale * seconds) - 4, "\(counts)")
      #expect(inFront == 0, "\(inFront) of \(written) epochs encoded at their deadline")
    }
  }
}
