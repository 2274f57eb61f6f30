import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// A restarted chip is deaf while it boots, on the manual clock: commands whose first byte
/// arrives during the silence are lost (counted, unanswered), as on hardware, even when the
/// rest arrives after it; once it is up it answers again.
@Suite(.blocking, .timeLimit(.minutes(10))) struct BootSilenceTests {
  static let versionQuery = "$PMTK605*31\r\n"

  /// A harness of `profile` past its first epoch.
  static func harness(_ profile: ReceiverProfile) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration()
    configuration.profile = profile
    let harness = try EmulatorHarness(configuration: configuration)
    do {
      _ = try harness.step()
    } catch {
      harness.stop()
      throw error
    }
    return harness
  }

  @Test func anMT3301LosesWhatArrivesWhileItBoots() throws {
    let harness = try Self.harness(.mtk)
    defer { harness.stop() }
    try harness.send(Self.versionQuery, expectingReplies: 1)
    #expect(try harness.stepText().hasPrefix("$PMTK705,"), "answered before the restart")
    let restarted = harness.clock.now()
    try harness.send("$PMTK101*32\r\n", expectingRestarts: 1)
    // Right behind the restart command.
    try harness.send(Self.versionQuery)
    // Written so that its first byte starts 1 ns before the boot ends (1 s for an MT3301), its
    // other 12 after it (13.5 ms at 9600 baud); then right when it ends.
    let bootEnd = restarted.adding(
      nanoseconds: ReceiverProfile.mtk.restartTiming.powerUpNanoseconds)
    harness.clock.set(bootEnd.adding(nanoseconds: -1))
    try harness.send(Self.versionQuery)
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 2)
    harness.clock.set(bootEnd)
    try harness.send(Self.versionQuery, expectingReplies: 1)
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 2)
    // The epoch due during the jump is late; the answer leaves before the next one.
    let text = try harness.stepText() + harness.stepText()
    #expect(text.components(separatedBy: "$PMTK705,").count == 2, "one answer: \(text)")
  }

  /// A command whose first bytes came in one read while the chip booted and the rest in a
  /// later one after it is up: the UART missed its start, so it is lost.
  @Test func aCommandBegunWhileBootingAndEndedAfterIsLost() throws {
    let harness = try Self.harness(.mtk)
    defer { harness.stop() }
    let restarted = harness.clock.now()
    try harness.send("$PMTK101*32\r\n", expectingRestarts: 1)
    let bootEnd = restarted.adding(
      nanoseconds: ReceiverProfile.mtk.restartTiming.powerUpNanoseconds)
    let query = Array(Self.versionQuery.utf8)
    // Its first 4 bytes from 10 ms before the boot ends, the other 9 from 50 ms after it.
    harness.clock.set(bootEnd.adding(nanoseconds: -10_000_000))
    try harness.send(incomplete: Array(query.prefix(4)))
    harness.clock.set(bootEnd.adding(nanoseconds: 50_000_000))
    try harness.send(bytes: Array(query.dropFirst(4)))
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 1)
    // Whole after the boot: answered.
    try harness.send(Self.versionQuery, expectingReplies: 1)
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 1)
  }

  /// A sentence is whole at its CR (or a lone LF): it begins that many bytes back, at its `$`,
  /// not at the byte before it. The first command written after the boot, right behind the
  /// restart command (whose LF came while the chip went down), is answered, with CR LF or LF.
  @Test(arguments: ["\r\n", "\n"])
  func theFirstSentenceWrittenAfterTheBootIsAnswered(ending: String) throws {
    let harness = try Self.harness(.mtk)
    defer { harness.stop() }
    let restarted = harness.clock.now()
    try harness.send("$PMTK101*32" + ending, expectingRestarts: 1)
    let bootEnd = restarted.adding(
      nanoseconds: ReceiverProfile.mtk.restartTiming.powerUpNanoseconds)
    harness.clock.set(bootEnd.adding(nanoseconds: 50_000_000))
    try harness.send("$PMTK605*31" + ending, expectingReplies: 1)
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 0)
  }

  @Test func aUbloxHardwareResetLosesAPollWrittenWithIt() throws {
    let harness = try Self.harness(.ubloxM8)
    defer { harness.stop() }
    // CFG-RST: cold start (navBbrMask FFFF), hardware reset (resetMode 0), then MON-VER.
    let reset = UBXFrame(.cfgRST, payload: [0xFF, 0xFF, 0x00, 0x00]).bytes
    let poll = UBXFrame(.monVER).bytes
    let repliesBefore = harness.emulator.repliesQueued
    try harness.send(bytes: reset + poll, commands: 2, expectingRestarts: 1)
    #expect(harness.emulator.statistics.commandsLostWhileBooting == 1)
    #expect(harness.emulator.repliesQueued == repliesBefore, "no answer to either")
  }
}
