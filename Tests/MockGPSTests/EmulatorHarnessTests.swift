import Geodesy
import MockGPS
import MockGPSTestSupport
import Simulation
import TestFixtures
import Testing

/// The harness used as a user's test would: a tiny NMEA consumer, written here, reads what the
/// device sent; the test moves the receiver, steps, and asserts on what the consumer saw.
@Suite(.blocking, .timeLimit(.minutes(10))) struct EmulatorHarnessTests {
  /// The software under test: keeps the position and fix quality of the last GGA it read.
  struct TinyNMEAConsumer {
    var latitude: Double?
    var longitude: Double?
    var quality: Int?

    mutating func consume(_ bytes: [UInt8]) {
      for line in String(decoding: bytes, as: UTF8.self).split(separator: "\r\n") {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard line.dropFirst(3).hasPrefix("GGA"), fields.count > 6 else { continue }
        quality = Int(fields[6])
        latitude = Self.degrees(fields[2], fields[3], width: 2)
        longitude = Self.degrees(fields[4], fields[5], width: 3)
      }
    }

    /// `ddmm.mmmm` and a hemisphere as signed degrees.
    static func degrees(_ value: Substring, _ hemisphere: Substring, width: Int) -> Double? {
      guard value.count > width, let whole = Double(value.prefix(width)),
        let minutes = Double(value.dropFirst(width))
      else { return nil }
      let degrees = whole + minutes / 60
      return hemisphere == "S" || hemisphere == "W" ? -degrees : degrees
    }
  }

  @Test func aConsumerFollowsTheReceiverStepByStep() throws {
    let harness = try EmulatorHarness()
    defer { harness.stop() }
    var consumer = TinyNMEAConsumer()

    harness.emulator.setPosition(GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35))
    consumer.consume(try harness.step())
    #expect(abs((consumer.latitude ?? 0) - 48.8584) < 1e-4)
    #expect(abs((consumer.longitude ?? 0) - 2.2945) < 1e-4)
    #expect(consumer.quality == 1)

    harness.emulator.setPosition(GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: 5))
    consumer.consume(try harness.step())
    #expect(abs((consumer.latitude ?? 0) + 33.8568) < 1e-4)
    #expect(abs((consumer.longitude ?? 0) - 151.2153) < 1e-4)
  }

  /// Each step is the next epoch of the grid, on the manual clock: one second apart at 1 Hz,
  /// the same bytes for the same time, whatever the machine is doing.
  @Test func stepsAreWholeEpochsOnTheGridAndExact() throws {
    let first = try EmulatorHarness()
    defer { first.stop() }
    let second = try EmulatorHarness()
    defer { second.stop() }
    var times: [Int64] = []
    for _ in 0..<3 {
      let text = try first.stepText()
      let other = try second.stepText()
      #expect(text == other)
      #expect(text.hasPrefix("$") && text.hasSuffix("\r\n"))
      #expect(text.contains("GGA") && text.contains("RMC"))
      times.append(first.clock.now().nanoseconds)
    }
    #expect(times[1] - times[0] == 1_000_000_000 && times[2] - times[1] == 1_000_000_000)
    #expect(first.emulator.statistics.epochsSent == 3)
    #expect(first.emulator.statistics.epochsLate == 0)
  }

  /// Faults through the scene: a receiver that loses its fix says so in the next epoch.
  @Test func aSceneWithoutAFixIsSeenInTheNextEpoch() throws {
    let harness = try EmulatorHarness()
    defer { harness.stop() }
    var consumer = TinyNMEAConsumer()
    consumer.consume(try harness.step())
    #expect(consumer.quality == 1)
    harness.emulator.setScene(
      Scene(
        motion: FixedPosition(EmulatorConfiguration.defaultPosition),
        faults: [TimedFault(.forceMode(.noFix))]))
    consumer.consume(try harness.step())
    #expect(consumer.quality == 0)
  }

  /// The power-up sentences leave with the first step; a command a client writes is answered
  /// between sentences, in the bytes of a following step.
  @Test func powerUpAndRepliesLeaveWithTheSteps() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    #expect(try harness.stepText().contains("$PMTK011,MTKGPS*08"))
    try harness.send("$PMTK605*31\r\n", expectingReplies: 1)
    let text = try harness.stepText()
    #expect(text.hasPrefix("$PMTK705"))
  }
}
