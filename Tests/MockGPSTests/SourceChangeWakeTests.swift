import Control
import Geodesy
import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Testing

/// The epoch loop encodes the next epoch right after the one before; a change of the source
/// in between wakes it, so that the epoch is encoded again ahead of its deadline (half a
/// period ahead at the latest), not at the deadline, where it would delay the first byte. On
/// the manual clock: when the loop next wants to run tells which.
@Suite(.blocking, .timeLimit(.minutes(10))) struct SourceChangeWakeTests {
  private static let period: Int64 = 1_000_000_000

  /// A harness at 1 Hz and 115200 baud, whose first epoch has been sent: its burst ends well
  /// before the next epoch's preparing lead.
  private static func harnessAfterOneEpoch() throws -> (EmulatorHarness, deadline: Int64) {
    var configuration = EmulatorConfiguration()
    configuration.pacing = try BytePacing(baud: 115_200)
    let harness = try EmulatorHarness(configuration: configuration)
    _ = try harness.step()
    let deadline = try #require(harness.runtime.nextDeadlineNanoseconds)
    #expect(
      deadline - harness.clock.now().nanoseconds > period / 2,
      "the next epoch, encoded already, is the loop's next deadline")
    return (harness, deadline)
  }

  @Test func aNewPositionWakesTheLoopToEncodeTheEpochAgainAhead() throws {
    let (harness, deadline) = try Self.harnessAfterOneEpoch()
    defer { harness.stop() }
    harness.emulator.setPosition(
      try GeodeticPosition(latitude: 10, longitude: 20, altitudeMeters: 30))
    harness.runtime.runDue()
    #expect(
      harness.runtime.nextDeadlineNanoseconds == deadline - Self.period / 2,
      "the epoch is encoded again half a period ahead of its deadline")
    let text = try harness.stepText()
    #expect(text.contains("1000.00000,N,02000.00000,E"), "the epoch has the new position")
  }

  @Test func aControlRequestWakesTheLoopToo() throws {
    let (harness, deadline) = try Self.harnessAfterOneEpoch()
    defer { harness.stop() }
    let reply = harness.emulator.handle(
      .position(latitude: 10, longitude: 20, altitudeMeters: 30)
    ).line
    #expect(reply.contains("\"ok\":true"), "\(reply)")
    harness.runtime.runDue()
    #expect(harness.runtime.nextDeadlineNanoseconds == deadline - Self.period / 2)
    #expect(try harness.stepText().contains("1000.00000,N,02000.00000,E"))
  }

  /// Past the lead, changes that keep coming (a storm of control requests) encode the epoch
  /// again at most once every 10 ms; the last change still reaches the epoch.
  @Test func changesPastTheLeadAreEncodedAtMostOnceASpacing() throws {
    let (harness, deadline) = try Self.harnessAfterOneEpoch()
    defer { harness.stop() }
    let pastLead = deadline - Self.period / 4
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: pastLead))
    harness.runtime.runDue()
    func position(_ latitude: Double) throws {
      harness.emulator.setPosition(
        try GeodeticPosition(latitude: latitude, longitude: 20, altitudeMeters: 30))
      harness.runtime.runDue()
    }
    try position(10)
    #expect(harness.runtime.nextDeadlineNanoseconds == deadline, "encoded again at once")
    try position(11)
    try position(12)
    #expect(
      harness.runtime.nextDeadlineNanoseconds == pastLead + 10_000_000,
      "the next change waits for the spacing")
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: pastLead + 10_000_000))
    harness.runtime.runDue()
    #expect(harness.runtime.nextDeadlineNanoseconds == deadline, "encoded again, once")
    #expect(try harness.stepText().contains("1200.00000,N,02000.00000,E"))
  }

  @Test func nothingChangedLeavesTheDeadlineAlone() throws {
    let (harness, deadline) = try Self.harnessAfterOneEpoch()
    defer { harness.stop() }
    harness.runtime.runDue()
    #expect(harness.runtime.nextDeadlineNanoseconds == deadline)
  }
}
