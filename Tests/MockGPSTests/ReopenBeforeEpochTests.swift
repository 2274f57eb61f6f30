import Glibc
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing

/// A client that reopens the device just before an epoch (a driver trying another baud) while
/// the I/O thread is kept from looking at it (a loaded machine) reads that epoch whole: the
/// epoch's first write waits for the look, which discards what the client before left
/// unread, instead of going first and being discarded by it. On the manual clock, with the I/O
/// thread held by the test (the race `MidEpochOpenTests` meets by chance under load).
@Suite(.blocking, .timeLimit(.minutes(10))) struct ReopenBeforeEpochTests {
  @Test func aClientReopeningWhileTheIOThreadIsHeldReadsTheEpochWhole() throws {
    var configuration = EmulatorConfiguration()
    configuration.pacing = try BytePacing(baud: 115_200)
    let harness = try EmulatorHarness(
      configuration: configuration, holdsClient: false, device: .pseudoTerminal)
    defer { harness.stop() }
    var first: DeviceReader? = try DeviceReader(path: harness.linkPath)
    try harness.waitForClient()
    try harness.stepWithoutReading()
    let deadline = try #require(harness.runtime.nextDeadlineNanoseconds)

    // The I/O thread is held, as a loaded machine may hold it, while the client reopens.
    let held = Atomic<Bool>(true)
    let holding = Atomic<Bool>(false)
    harness.runtime.io.perform {
      holding.store(true, ordering: .releasing)
      while held.load(ordering: .acquiring) { usleep(1000) }
    }
    #expect(Eventually.holds(within: 5) { holding.load(ordering: .acquiring) })
    _ = first
    first = nil
    let reader = try DeviceReader(path: harness.linkPath)
    // Some milliseconds before the epoch: the device asks the kernel about clients at most
    // once a millisecond for all its devices, so a change within the last one may go unseen.
    usleep(5_000)
    let connections = harness.emulator.statistics.connections
    let sentBefore = harness.emulator.statistics.bytesSent

    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: deadline))
    harness.runtime.runDue()
    held.store(false, ordering: .releasing)
    // The I/O thread sees the client join; the step it woke (if it waits) is due now.
    #expect(
      Eventually.holds(within: 5) { harness.emulator.statistics.connections > connections })
    _ = Eventually.holds(within: 5) {
      (harness.runtime.nextDeadlineNanoseconds ?? .max) <= harness.clock.now().nanoseconds
    }
    try harness.stepWithoutReading()
    let sent = harness.emulator.statistics.bytesSent - sentBefore

    let burst = try #require(reader.readBursts(1, timeoutSeconds: 3).first)
    #expect(burst.count == sent, "the client read every byte of the epoch written for it")
    #expect(String(decoding: burst.prefix(6), as: UTF8.self) == "$GPRMC")
  }
}
