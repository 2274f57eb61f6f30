import DeviceRuntime  // Log, SystemUTCClock, EmulatorRuntime
import Geodesy
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Testing

// The README's Swift examples (From Swift), compiled and run: the lines between each
// `README:` marker and its end are the README block's, with this file's indentation
// (`ReadmeBlocksTests.theSwiftExamplesAreThisTargetsCode` compares them).

/// The first example: an emulator on a link, moved, its fix lost for ten seconds.
@Suite(.blocking, .serialized) struct ReadmeSwiftExamplesTests {
  @Test func theEmulatorExampleRuns() throws {
    // README: Emulator
    let configuration = EmulatorConfiguration(
      linkPath: "/tmp/ttyTEST", cadence: try CadencePlan(rateHz: 10))
    let emulator = try Emulator(configuration: configuration, log: Log(level: .warning))
    try emulator.start()
    let tower = try GeodeticPosition(latitude: 48.8584, longitude: 2.2945, altitudeMeters: 35)
    emulator.setPosition(tower)
    // … the software under test reads /tmp/ttyTEST …
    // Lose the fix for ten seconds, every satellite still in view, from the next epoch on:
    let now = SystemUTCClock().now()
    emulator.setScene(
      Scene(
        motion: FixedPosition(tower),
        faults: [
          FixFault(.forceMode(.noFix), window: FaultWindow(from: now, nanoseconds: 10_000_000_000))
        ]))
    emulator.stop()
    // README end
  }
}

/// The reader's software under test in the second example: the latitude of the last GGA.
private struct MyNMEATracker {
  var latitude = Double.nan
  private var framer = Framer()

  mutating func consume(_ bytes: [UInt8]) {
    for line in framer.append(bytes[...]) {
      if let gga = try? GGA(parsing: line), let latitude = gga.latitude {
        self.latitude = latitude.degreesValue
      }
    }
  }
}

// README: EmulatorHarness
@Test func theTrackerFollowsTheReceiver() throws {
  // A MediaTek: the generic profile answers no command.
  let harness = try EmulatorHarness(configuration: EmulatorConfiguration(profile: .mtk))
  defer { harness.stop() }
  var tracker = MyNMEATracker()  // the software under test
  harness.emulator.setPosition(GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35))
  tracker.consume(try harness.step())  // one epoch, one second later on the manual clock
  #expect(abs(tracker.latitude - 48.8584) < 1e-4)
  try harness.send("$PMTK605*31\r\n", expectingReplies: 1)  // a command, answered next step
}
// README end
