import DeviceRuntime
import Foundation
import Geodesy
import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// Many emulators on one `EmulatorRuntime`: one scheduler thread serves all their epochs.
@Suite(.blocking, .serialized, .timeLimit(.minutes(10))) struct SharedRuntimeTests {
  /// Emulators on one runtime, each on a unique link in one temporary folder.
  final class Fleet {
    let runtime: EmulatorRuntime
    let emulators: [Emulator]
    let directory: String

    init(count: Int, runtime: EmulatorRuntime, rateHz: Double = 1, baud: Int = 9600) throws {
      self.runtime = runtime
      directory = NSTemporaryDirectory() + "mockgps-fleet-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      var emulators: [Emulator] = []
      for index in 0..<count {
        let configuration = EmulatorConfiguration(
          linkPath: directory + "/gps\(index)", cadence: try CadencePlan(rateHz: rateHz),
          pacing: try BytePacing(baud: baud), groupName: nil, mode: 0o600)
        let emulator = try Emulator(
          configuration: configuration, log: Log(level: .quiet), runtime: runtime)
        emulators.append(emulator)
        try emulator.start()
      }
      self.emulators = emulators
    }

    func stop() {
      for emulator in emulators { emulator.stop() }
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// A fleet at 10 Hz and 115200 baud (an epoch is one write, and ends in the step after it)
  /// on a manual runtime, each device opened by a reader, the clock 10 ns into 2026.
  final class ManualFleet {
    let second: Int64 = 1_000_000_000
    let clock: ManualClock
    let runtime: EmulatorRuntime
    let fleet: Fleet
    let readers: [DeviceReader]

    init(count: Int) throws {
      clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600 * second + 10))
      runtime = try EmulatorRuntime(manualClock: clock)
      let fleet: Fleet
      do {
        fleet = try Fleet(count: count, runtime: runtime, rateHz: 10, baud: 115_200)
      } catch {
        runtime.stop()
        throw error
      }
      do {
        readers = try fleet.emulators.map { try DeviceReader(path: $0.link.path) }
      } catch {
        fleet.stop()
        runtime.stop()
        throw error
      }
      self.fleet = fleet
      let emulators = fleet.emulators
      #expect(Eventually.holds(within: 5) { emulators.allSatisfy(\.device.hasClients) })
    }

    func stop() {
      fleet.stop()
      runtime.stop()
    }
  }

  /// Each of 20 emulators on one runtime sends whole epochs, starting on the UTC second and
  /// paced at 9600 baud, as read from its own slave at the same time as the others.
  @Test func twentyEmulatorsOnOneRuntimeEachPaceAlignedEpochs() throws {
    let runtime = try EmulatorRuntime()
    defer { runtime.stop() }
    let fleet = try Fleet(count: 20, runtime: runtime)
    defer { fleet.stop() }
    let readers = try fleet.emulators.map { try DeviceReader(path: $0.link.path) }
    // A first line read late shortens the spread as much: the readers, the scheduler thread and
    // the kernel's workers that carry the bytes wait for a CPU under load (a clean run beside
    // two hogs saw one spread 55 ms short of the line time, and passed alone beside them).
    let steal = try StealWatch.start()
    defer { steal.stop() }
    steal.watchWaiting(of: getpid(), realtimeOnly: false)
    steal.watchKernelWorkers()
    let utcMinusMonotonic = SystemClock.nanosecondsSinceEpoch() - SystemClock.monotonicNanoseconds()
    let results = Mutex<[Int: [DeviceReader.TimedLine]]>([:])
    let group = DispatchGroup()
    for (index, reader) in readers.enumerated() {
      nonisolated(unsafe) let reader = reader
      group.enter()
      Thread {
        defer { group.leave() }
        // The first epoch may be partly before the open: skip to the end of one.
        _ = reader.readUntil(type: "ZDA", timeoutSeconds: 5)
        var epoch: [DeviceReader.TimedLine] = []
        while epoch.last?.text.dropFirst(3).hasPrefix("ZDA") != true {
          guard let line = reader.readLines(1, timeoutSeconds: 3).first else { break }
          epoch.append(line)
        }
        results.withLock { $0[index] = epoch }
      }.start()
    }
    group.wait()
    let epochs = results.withLock { $0 }
    for index in 0..<20 {
      let epoch = epochs[index] ?? []
      try #require(epoch.count >= 7, "device \(index): \(epoch.map(\.text))")
      let bytes = epoch.map { $0.text.utf8.count + 2 }.reduce(0, +)
      let (first, last) = (epoch[0].arrivalNanoseconds, epoch[epoch.count - 1].arrivalNanoseconds)
      let spread = Double(last - first)
      let lineTime = Double(bytes - epoch[0].text.utf8.count - 2) / 960 * 1e9
      // Unpaced, the spread is a few milliseconds: waits of hundreds would be needed to hide it.
      let waited = Double(
        steal.longestEpisodeNanoseconds(
          fromNanoseconds: first - Int64(lineTime), untilNanoseconds: last, on: .monotonic))
      #expect(
        spread + waited >= lineTime * 0.9,
        "device \(index): \(bytes) bytes in \(spread / 1e9) s, \(waited / 1e9) s waited for a CPU")
      // Written at most the late tolerance (250 ms) after the second, plus one 40 ms chunk.
      let firstUTC = epoch[0].arrivalNanoseconds + utcMinusMonotonic
      let intoSecond = firstUTC % 1_000_000_000
      #expect(intoSecond < 300_000_000, "device \(index): first line \(intoSecond) ns late")
    }
    #expect(fleet.emulators.allSatisfy { $0.statistics.epochsSent > 0 })
  }

  /// At an instant when every device's epoch falls due, every device writes its first bytes
  /// before any device's listeners are told: bookkeeping never delays another device's epoch.
  /// The listeners are still told at that instant, not with the burst's next write (40 ms on).
  @Test func everyDeviceWritesItsEpochBeforeAnyListenerIsTold() throws {
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_500_000_000))
    let runtime = try EmulatorRuntime(manualClock: clock)
    defer { runtime.stop() }
    let fleet = try Fleet(count: 5, runtime: runtime, rateHz: 10)
    defer { fleet.stop() }
    let readers = try fleet.emulators.map { try DeviceReader(path: $0.link.path) }
    #expect(Eventually.holds(within: 5) { fleet.emulators.allSatisfy(\.device.hasClients) })
    // For each listener call: the bytes every device had sent by then.
    let told = Mutex<[[Int]]>([])
    let lateness = Mutex<[Int64]>([])
    let emulators = fleet.emulators
    for emulator in emulators {
      _ = emulator.addEpochListener { epoch in
        let sent = emulators.map(\.statistics.bytesSent)
        told.withLock { $0.append(sent) }
        lateness.withLock {
          $0.append(clock.now().nanoseconds - epoch.time.nanoseconds)
        }
      }
    }
    while told.withLock({ $0.count }) < fleet.emulators.count {
      let next = try #require(runtime.nextDeadlineNanoseconds)
      clock.set(UTCInstant(nanosecondsSinceEpoch: next))
      runtime.runDue()
    }
    // The first epoch: no device sent anything before it.
    for sent in told.withLock({ $0.prefix(fleet.emulators.count) }) {
      #expect(sent.allSatisfy { $0 > 0 }, "bytes sent by each device when one was told: \(sent)")
    }
    #expect(lateness.withLock { $0 }.allSatisfy { $0 == 0 }, "told after the epoch's instant")
    _ = readers
  }

  /// Devices whose epochs fall due at one instant do not encode their next epochs between
  /// each other's first writes: only the last of them encodes at once (its epoch ended, no one
  /// waits), the others at the lead, half a period on, in one wake-up. Each encoding between
  /// writes made the last of 1,000 devices' first bytes 30 ms late.
  @Test func devicesDueTogetherEncodeTheirNextEpochsAfterAllHaveWritten() throws {
    let manual = try ManualFleet(count: 3)
    defer { manual.stop() }
    let (clock, runtime, fleet) = (manual.clock, manual.runtime, manual.fleet)
    let second = manual.second
    func runTo(_ nanoseconds: Int64) {
      clock.set(UTCInstant(nanosecondsSinceEpoch: nanoseconds))
      runtime.runDue()
    }
    let period = second / 10
    // Past the first epoch (its encoding came with no write before it), to the second.
    let first = (clock.now().nanoseconds / period + 1) * period
    runTo(first)
    runTo(first + period / 2)
    let sent = fleet.emulators.map(\.statistics.epochsSent)
    runTo(first + period)
    #expect(fleet.emulators.map(\.statistics.epochsSent) == sent.map { $0 + 1 }, "\(sent)")
    #expect(runtime.nextDeadlineNanoseconds == first + period + period / 2, "the lead")
    runTo(first + period + period / 2)
    #expect(runtime.nextDeadlineNanoseconds == first + 2 * period, "all encoded at the lead")
  }

  /// Devices whose epochs fall due at one instant write them in the order they were added,
  /// every period, also after one of them was woken in between (its position changed): each
  /// device's lateness in the burst is its place, the same each epoch. Before, the last of them
  /// encoded at once and went first in the next period, and a device woken went last: a fleet
  /// of 1,000 drew its order anew each period, and each device's p99 lateness was the whole
  /// burst's (`bench-many 1000`: 12.8 ms for the median device, the floor's 7.5 ms).
  @Test func devicesDueTogetherWriteInTheSameOrderEveryPeriod() throws {
    let manual = try ManualFleet(count: 4)
    defer { manual.stop() }
    let (clock, runtime, fleet) = (manual.clock, manual.runtime, manual.fleet)
    let second = manual.second
    // The devices in the order their epochs' listeners were told (in the order of their first
    // writes: see `everyDeviceWritesItsEpochBeforeAnyListenerIsTold`), by epoch.
    let told = Mutex<[Int64: [Int]]>([:])
    for (index, emulator) in fleet.emulators.enumerated() {
      _ = emulator.addEpochListener { epoch in
        told.withLock { $0[epoch.time.nanoseconds, default: []].append(index) }
      }
    }
    let period = second / 10
    let first = (clock.now().nanoseconds / period + 1) * period
    func runTo(_ nanoseconds: Int64) {
      while let next = runtime.nextDeadlineNanoseconds, next <= nanoseconds {
        clock.set(UTCInstant(nanosecondsSinceEpoch: next))
        runtime.runDue()
      }
      clock.set(UTCInstant(nanosecondsSinceEpoch: nanoseconds))
    }
    runTo(first + 3 * period + period / 4)
    fleet.emulators[1].setPosition(GeodeticPosition(known: 48.1, 11.5, altitudeMeters: 500))
    runtime.runDue()
    runTo(first + 6 * period)
    let epochs = told.withLock { $0 }
    for epoch in 0...6 {
      let time = first + Int64(epoch) * period
      #expect(epochs[time] == [0, 1, 2, 3], "epoch \(epoch): \(epochs[time] ?? [])")
    }
  }

  /// An emulator with no client and no epoch listener does not encode its epochs, and counts
  /// each as sent without a client.
  @Test func anIdleEmulatorCountsItsEpochsWithoutAClient() throws {
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_500_000_000))
    let runtime = try EmulatorRuntime(manualClock: clock)
    defer { runtime.stop() }
    let fleet = try Fleet(count: 3, runtime: runtime, rateHz: 10)
    defer { fleet.stop() }
    for _ in 0..<10 {
      guard let next = runtime.nextDeadlineNanoseconds else { break }
      clock.set(UTCInstant(nanosecondsSinceEpoch: next))
      runtime.runDue()
    }
    for emulator in fleet.emulators {
      #expect(emulator.statistics.epochsWithoutClient >= 3)
      #expect(emulator.statistics.epochsSent == 0 && emulator.statistics.epochsLate == 0)
    }
  }
}
