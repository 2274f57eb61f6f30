import DeviceRuntime
import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// `--time-scale`'s wire limit, refused before a device is opened. The epochs' times and the
/// rate lowered to the limit are `TimeScaleTimingTests`'s, the scaled pacing
/// `LinePacingTimingTests`'s.
@Suite(.blocking, .serialized) struct TimeScaleDeviceTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

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
}
