import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing

/// A receiver standing still that has nothing more to play after `endTime`.
struct EndingMotion: Motion {
  var endTime: UTCInstant?

  func state(at time: UTCInstant) -> MotionState {
    MotionState(
      position: EmulatorConfiguration.defaultPosition, speedMetersPerSecond: 0, courseDegrees: 0)
  }
}

/// Counts the calls of an action.
final class CallCounter: Sendable {
  private let count = Mutex(0)
  func call() { count.withLock { $0 += 1 } }
  var calls: Int { count.withLock { $0 } }
}

/// The end of a source, on the manual clock (`EmulatorHarness`): the emulator says it has
/// finished once it has sent the first epoch at or after the end, and not before.
@Suite(.blocking) struct SourceEndTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

  /// A harness at `rateHz` and `baud` from noon on 1 June 2024, standing still until `end`.
  static func harness(
    rateHz: Double, baud: Int, timeScale: Double = 1, end: UTCInstant?, holdsClient: Bool = true
  ) throws -> EmulatorHarness {
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: rateHz), pacing: try BytePacing(baud: baud),
        timeScale: timeScale, startTime: start),
      holdsClient: holdsClient)
    harness.emulator.setScene(Scene(motion: EndingMotion(endTime: end)))
    return harness
  }

  /// The sentence types of an epoch's bytes, in order, and its RMC's time of day.
  static func sentences(_ bytes: [UInt8]) throws -> (types: [String], rmc: Double?) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
    let rmc = try lines.first { $0.dropFirst(3).hasPrefix("RMC") }.flatMap {
      try RMC(parsing: $0).time?.secondsOfDay
    }
    return (lines.map { String($0.dropFirst(3).prefix(3)) }, rmc)
  }

  @Test func anEmulatorFinishesAfterTheEpochAtTheEndOfItsMotion() throws {
    // The harness's clock starts half a second before an epoch: the first shows 12:00:01.
    let end = Self.start.adding(nanoseconds: 3 * UTCInstant.nanosecondsPerSecond)
    let harness = try Self.harness(rateHz: 1, baud: 9600, end: end)
    defer { harness.stop() }
    let finished = CallCounter()
    harness.emulator.onFinished { finished.call() }
    let first = try Self.sentences(try harness.step())
    let second = try Self.sentences(try harness.step())
    #expect([first.rmc, second.rmc] == [43_201, 43_202])
    #expect(!harness.emulator.isFinished)
    // The epoch at the end, a millisecond at a time: finished only once it is all written.
    var bytes: [UInt8] = []
    var milliseconds = 0
    while !harness.emulator.isFinished, milliseconds < 2000 {
      bytes += try harness.read(harness.advance(byNanoseconds: 1_000_000))
      milliseconds += 1
    }
    let last = try Self.sentences(bytes)
    #expect(last.rmc == 43_203)
    #expect(last.types == second.types, "finished after \(last.types) of \(second.types)")
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(finished.calls == 1)
    // Registered after the end: runs at once, and the first action does not run again.
    let late = CallCounter()
    harness.emulator.onFinished { late.call() }
    #expect(late.calls == 1)
    harness.advance(byNanoseconds: 1_200_000_000)
    #expect(finished.calls == 1)
  }

  @Test func aScaledRunFinishesTenTimesSooner() throws {
    let end = Self.start.adding(nanoseconds: 20 * UTCInstant.nanosecondsPerSecond)
    let harness = try Self.harness(rateHz: 1, baud: 0, timeScale: 10, end: end)
    defer { harness.stop() }
    #expect(try Self.sentences(try harness.step()).rmc == 43_200)
    let began = harness.clock.now().nanoseconds
    var epochs = 0
    while !harness.emulator.isFinished, epochs < 100 {
      try harness.stepWithoutReading()
      epochs += 1
    }
    // 20 simulated seconds after the first epoch, 2 s of the wire, where unscaled takes 20.
    #expect(epochs == 20)
    #expect(harness.clock.now().nanoseconds - began == 2_000_000_000)
  }

  @Test func aSourceWithoutAnEndNeverFinishes() throws {
    let harness = try Self.harness(
      rateHz: 10, baud: 0, timeScale: 100, end: nil, holdsClient: false)
    defer { harness.stop() }
    // A scaled run starts at the next whole wire second (0.5 s away), then sends 1000 epochs
    // a wire second: 201 by 0.7 s, none the last.
    harness.advance(byNanoseconds: 700_000_000)
    #expect(!harness.emulator.isFinished)
    #expect(harness.emulator.statistics.epochsWithoutClient == 201)
  }
}
