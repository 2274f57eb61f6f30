import DeviceRuntime
import Foundation
import Geodesy
import MockGPS
import MockGPSTestSupport
import Simulation
import Synchronization
import SystemIO
import TestFixtures
import Testing

@testable import mockgps

/// A receiver standing still with nothing more to play after `endTime`.
private struct EndingMotion: Motion {
  var endTime: UTCInstant?

  func state(at time: UTCInstant) -> MotionState {
    MotionState(
      position: EmulatorConfiguration.defaultPosition, speedMetersPerSecond: 0, courseDegrees: 0)
  }
}

/// A flag shared with a watchdog thread.
private final class Flag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// How `mockgps run` waits: for a termination signal or the end of the source, woken by the
/// emulator's finish through SIGUSR1 sent to the waiting thread alone.
@Suite(.blocking, .serialized) struct RunCommandFinishTests {
  @Test func theWaitEndsWhenTheSourceEndsAndNotAtAnEarlierStrayWakeUp() throws {
    let directory = NSTemporaryDirectory() + "mockgps-run-end-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 12)
    let emulator = try Emulator(
      configuration: EmulatorConfiguration(
        linkPath: directory + "/tty", groupName: nil, timeScale: 10, startTime: start),
      log: Log(level: .quiet))
    emulator.setScene(
      Scene(motion: EndingMotion(endTime: start.adding(nanoseconds: 20_000_000_000))))
    let wakeUp = ThreadWakeUp()
    // A wake-up before the end, as a stray `kill -USR1` would be: it must not end the wait.
    wakeUp.wake()
    emulator.onFinished { wakeUp.wake() }
    // Should the finish never come, the watchdog ends the wait instead of hanging the tests.
    let done = Flag()
    let timedOut = Flag()
    Thread.detachNewThread {
      for _ in 0..<500 where !done.isSet { usleep(10_000) }
      guard !done.isSet else { return }
      timedOut.set()
      wakeUp.wake()
    }
    let began = Date()
    try emulator.start()
    let reason = RunCommand.waitForTermination(wakeUp: wakeUp) {
      emulator.isFinished || timedOut.isSet
    }
    done.set()
    let seconds = Date().timeIntervalSince(began)
    emulator.stop()
    #expect(reason == "the source has ended")
    #expect(!timedOut.isSet)
    #expect(emulator.isFinished)
    // The start at the next whole wire second (0 to 1 s away), then 20 simulated seconds at
    // ten times: 2 to 3 wall seconds in all.
    #expect(seconds > 1.9 && seconds < 3.6, "ended after \(seconds) s")
    #expect(!FileManager.default.fileExists(atPath: directory + "/tty"))
  }
}
