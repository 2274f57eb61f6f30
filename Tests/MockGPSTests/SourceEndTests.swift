import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import NMEA
import Simulation
import Synchronization
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

/// The end of a source: the emulator says it has finished once it has sent the first epoch at
/// or after the end, and not before.
@Suite(.blocking, .serialized) struct SourceEndTests {
  static let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)

  @Test func anEmulatorFinishesAfterTheEpochAtTheEndOfItsMotion() throws {
    let end = Self.start.adding(nanoseconds: 2 * UTCInstant.nanosecondsPerSecond)
    let running = try RunningEmulator(
      rateHz: 1, baud: 9600, startTime: Self.start,
      scene: Scene(motion: EndingMotion(endTime: end)))
    defer { running.stop() }
    let finished = CallCounter()
    running.emulator.onFinished { finished.call() }
    let reader = try DeviceReader(path: running.linkPath)
    let endSeconds = Double(12 * 3600 + 2)
    var times: [Double] = []
    while times.last ?? 0 < endSeconds,
      let line = reader.readUntil(type: "RMC", timeoutSeconds: 4)
    {
      times.append(try #require(try RMC(parsing: line.text).time).secondsOfDay)
      // The epoch at the end is still being written: not finished before it is all sent.
      #expect(!running.emulator.isFinished, "finished at \(times)")
    }
    #expect(times.last == endSeconds)
    #expect(running.wait { running.emulator.isFinished })
    #expect(running.wait { finished.calls == 1 })
    // Registered after the end: runs at once, and the first action does not run again.
    let late = CallCounter()
    running.emulator.onFinished { late.call() }
    #expect(late.calls == 1)
    usleep(1_200_000)
    #expect(finished.calls == 1)
  }

  @Test func aScaledRunFinishesTenTimesSooner() throws {
    let end = Self.start.adding(nanoseconds: 20 * UTCInstant.nanosecondsPerSecond)
    let began = DeviceReader.monotonicNanoseconds()
    let running = try RunningEmulator(
      rateHz: 1, baud: 0, timeScale: 10, startTime: Self.start,
      scene: Scene(motion: EndingMotion(endTime: end)))
    defer { running.stop() }
    #expect(running.wait(seconds: 5) { running.emulator.isFinished })
    let seconds = Double(DeviceReader.monotonicNanoseconds() - began) / 1e9
    // A scaled run starts at its start at the next whole wire second (0 to 1 s away), then 20
    // simulated seconds take 2 wall seconds: 2 to 3 s in all, where unscaled would take 20.
    #expect(seconds > 1.9 && seconds < 3.6, "finished after \(seconds) s")
  }

  @Test func aSourceWithoutAnEndNeverFinishes() throws {
    let running = try RunningEmulator(rateHz: 10, baud: 0, timeScale: 100)
    defer { running.stop() }
    // A scaled run starts at the next whole wire second, then sends 1000 epochs a second.
    usleep(1_600_000)
    #expect(!running.emulator.isFinished)
    #expect(running.emulator.statistics.epochsWithoutClient > 100)
  }
}
