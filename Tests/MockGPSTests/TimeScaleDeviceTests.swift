import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Testing

/// `--time-scale` on a real pseudo-terminal: the wire limit and the rate lowered to it. The
/// epochs' times are `TimeScaleTimingTests`'s, the scaled pacing `LinePacingTimingTests`'s.
@Suite(.blocking, .serialized) struct TimeScaleDeviceTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

  /// The RMC sentences that arrive within `seconds`, with their time of day and arrival.
  static func rmcTimes(from reader: DeviceReader, seconds: Double) throws -> [(
    secondsOfDay: Double, arrivalNanoseconds: Int64
  )] {
    let deadline = DeviceReader.monotonicNanoseconds() + Int64(seconds * 1e9)
    var times: [(Double, Int64)] = []
    while DeviceReader.monotonicNanoseconds() < deadline {
      let remaining = Double(deadline - DeviceReader.monotonicNanoseconds()) / 1e9
      guard let line = reader.readUntil(type: "RMC", timeoutSeconds: remaining) else { break }
      let rmc = try RMC(parsing: line.text)
      times.append((try #require(rmc.time).secondsOfDay, line.arrivalNanoseconds))
    }
    return times
  }

  @Test func aRateAndScaleBeyondTheWireLimitAreRefusedBeforeAnythingIsOpened() throws {
    let directory = NSTemporaryDirectory() + "mockgps-too-fast-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let configuration = EmulatorConfiguration(
      linkPath: directory + "/tty", cadence: try CadencePlan(rateHz: 20), timeScale: 100)
    #expect {
      _ = try Emulator(configuration: configuration, log: Log(level: .quiet))
    } throws: { error in
      (error as? Emulator.StartError)?.description
        == "20 Hz at time scale 100 needs 2000 epochs a second on the wire, more than 1000"
    }
    #expect(!FileManager.default.fileExists(atPath: directory + "/tty"))
  }

  /// A client asks for 5 Hz at a time scale of 500: 2500 epochs a wire second, lowered to the
  /// limit of 1000 (2 Hz). A debug build cannot encode a thousand epochs a second, so some are
  /// late and skipped; those sent are on the 2 Hz grid, and some follow each other at 0.5 s.
  @Test func aRateCommandTheScaleWouldPushPastTheLimitIsLowered() throws {
    let seen = SeenMessages()
    let running = try RunningEmulator(
      rateHz: 1, baud: 0, handler: CountingRateHandler(seen: seen), timeScale: 500,
      startTime: Self.start)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    _ = reader.readUntil(type: "GGA", timeoutSeconds: 2)
    try reader.write("$PMTK220,200*2C\r\n")
    #expect(running.wait { running.log.contains("sending at 2 Hz") })
    #expect(
      running.log.contains("5 Hz at time scale 500 needs 2500 epochs a second on the wire"))
    _ = reader.readLines(1000, timeoutSeconds: 0.2)
    let times = try Self.rmcTimes(from: reader, seconds: 0.5).map(\.secondsOfDay)
    #expect(times.count > 20, "\(running.emulator.statistics)")
    let steps = zip(times, times.dropFirst()).map { $1 - $0 }
    #expect(steps.allSatisfy { $0 > 0 && ($0 * 2).rounded() == $0 * 2 }, "\(steps)")
    #expect(steps.contains(0.5), "\(steps)")
  }
}
