import DeviceRuntime
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing

/// The epoch loop's accounting on a manual clock, on a line in memory: every epoch whose time has
/// come lands in exactly one counter, also the epochs whose burst never ends, which the soak
/// counts to the epoch (`scripts/soak`).
@Suite(.blocking, .timeLimit(.minutes(10))) struct EpochAccountingLoopTests {
  /// A slow line: one epoch's burst takes about a second at 4800 baud, written in 40 ms chunks.
  static func slowLine() throws -> EmulatorConfiguration {
    EmulatorConfiguration(pacing: try BytePacing(baud: 4_800))
  }

  /// Every counter an epoch can land in, added up.
  static func accounted(_ statistics: DeviceStatistics) -> Int {
    statistics.epochsSent + statistics.epochsWithoutClient + statistics.epochsOverrun
      + statistics.epochsLate + statistics.burstsCut
  }

  /// Moves the clock to the loop's next deadline and runs what is due there.
  static func runNext(_ harness: EmulatorHarness) throws {
    let next = try #require(harness.runtime.nextDeadlineNanoseconds)
    harness.clock.set(
      UTCInstant(nanosecondsSinceEpoch: max(next, harness.clock.now().nanoseconds)))
    harness.runtime.runDue()
  }

  @Test func wholeEpochsAreCountedOnceEachAndDue() throws {
    let harness = try EmulatorHarness(device: .memory)
    defer { harness.stop() }
    for _ in 0..<3 { _ = try harness.step() }
    harness.emulator.stop()
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsSent == 3)
    #expect(statistics.epochsDue == 3)
    #expect(Self.accounted(statistics) == statistics.epochsDue)
  }

  /// SIGTERM in the middle of a burst: the epoch was due and is not sent whole; it is counted
  /// cut short, not lost.
  @Test func aBurstInFlightWhenTheEmulatorStopsIsCountedCutShort() throws {
    let harness = try EmulatorHarness(configuration: try Self.slowLine(), device: .memory)
    defer { harness.stop() }
    harness.runtime.runDue()
    try Self.runNext(harness)  // the epoch is due: its burst starts
    try Self.runNext(harness)  // its first chunk is written; the rest is still to come
    #expect(harness.emulator.statistics.bytesSent > 0)
    harness.emulator.stop()
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsDue == 1)
    #expect(statistics.burstsCut == 1)
    #expect(Self.accounted(statistics) == statistics.epochsDue)
    harness.emulator.stop()
    #expect(harness.emulator.statistics.burstsCut == 1)
  }

  /// The client closes the device in the middle of a burst: the next write fails, and the
  /// epoch is counted cut short, not lost. On a line in memory, and on a pseudo-terminal,
  /// whose hang-up the I/O thread must see.
  @Test(arguments: [EmulatorHarness.Device.memory, .pseudoTerminal])
  func aBurstWhoseClientLeavesMidwayIsCountedCutShort(device: EmulatorHarness.Device) throws {
    let harness = try EmulatorHarness(
      configuration: try Self.slowLine(), holdsClient: false, device: device)
    defer { harness.stop() }
    let written: Int
    if device == .memory {
      try harness.openClient()
      harness.runtime.runDue()
      try Self.runNext(harness)
      try Self.runNext(harness)
      written = harness.emulator.statistics.bytesSent
      try harness.closeClient()
      #expect(!harness.emulator.device.hasClients)
    } else {
      do {
        let client = try DeviceReader(path: harness.linkPath)
        try harness.waitForClient()
        harness.runtime.runDue()
        try Self.runNext(harness)
        try Self.runNext(harness)
        written = harness.emulator.statistics.bytesSent
        withExtendedLifetime(client) {}
      }
      #expect(Eventually.holds(within: 5) { !harness.emulator.device.hasClients })
    }
    #expect(written > 0)
    try Self.runNext(harness)  // the next chunk finds no client
    let statistics = harness.emulator.statistics
    #expect(statistics.bytesSent == written)
    #expect(statistics.epochsDue == 1)
    #expect(statistics.burstsCut == 1)
    #expect(Self.accounted(statistics) == statistics.epochsDue)
  }
}
