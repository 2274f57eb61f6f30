import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

/// A restart a client orders, on the manual clock: the chip's silence while it boots, its
/// power-up sentences, epochs without a fix for its time to first fix, then a fix.
@Suite(.blocking, .timeLimit(.minutes(10))) struct RestartEffectTests {
  static let banner = "$PMTK011,MTKGPS*08\r\n$PMTK010,001*2E\r\n"

  /// The fix quality of the step's GGA, or nil without one.
  static func ggaQuality(_ text: String) -> String? {
    guard let gga = text.split(separator: "\r\n").first(where: { $0.hasPrefix("$GPGGA") })
    else { return nil }
    return gga.split(separator: ",", omittingEmptySubsequences: false).dropFirst(6).first.map(
      String.init)
  }

  /// An MT3301 that has sent its first epoch (12:00:01, with the power-up sentences) and been
  /// ordered `command` while that epoch was still on the line.
  static func restarted(by command: String) throws -> EmulatorHarness {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration)
    let first = try harness.stepText()
    #expect(first.hasPrefix(banner))
    #expect(ggaQuality(first) == "1")
    try harness.send(command + "\r\n", expectingRestarts: 1)
    return harness
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var command: String
    /// Epochs after the banner's without a fix: the restart came between 1 s and 2 s, the
    /// MT3301 is up 1 s later (between the epochs of 2 s and 3 s), then searches for its time
    /// to first fix (1 s hot, 36 s cold).
    var epochsWithoutFixAfterBanner: Int
    var testDescription: String { command }
  }

  static let cases = [
    Case(command: "$PMTK101*32", epochsWithoutFixAfterBanner: 0),
    Case(command: "$PMTK103*30", epochsWithoutFixAfterBanner: 35),
    Case(command: "$PMTK104*37", epochsWithoutFixAfterBanner: 35),
  ]

  @Test(arguments: cases) func silenceThenBannerThenNoFixThenAFix(_ test: Case) throws {
    let harness = try Self.restarted(by: test.command)
    defer { harness.stop() }
    #expect(try harness.step() == [], "the epoch of 2 s is lost to the boot")
    let up = try harness.stepText()
    #expect(up.hasPrefix(Self.banner), "\(up)")
    #expect(Self.ggaQuality(up) == "0")
    #expect(up.contains("$GPRMC") && up.contains(",V,"))
    for index in 0..<test.epochsWithoutFixAfterBanner {
      let text = try harness.stepText()
      #expect(!text.contains("$PMTK"), "epoch \(index): \(text)")
      #expect(Self.ggaQuality(text) == "0", "epoch \(index): \(text)")
    }
    let fixed = try harness.stepText()
    #expect(!fixed.contains("$PMTK"))
    #expect(Self.ggaQuality(fixed) == "1", "\(fixed)")
  }
}

/// u-blox's hardware reset "immediately" stops the chip in the middle of what it sends; a
/// controlled software reset lets the epoch on the line finish.
@Suite(.blocking, .timeLimit(.minutes(10))) struct ImmediateResetTests {
  /// CFG-RST, a cold start with `mode`.
  static func reset(mode: UInt8) -> [UInt8] {
    UBXFrame(.cfgRST, payload: [0xFF, 0xFF, mode, 0]).bytes
  }

  @Test(arguments: [(UInt8(0x00), true), (0x01, false)])
  func theResetCutsTheEpochOnTheLineOnlyWhenImmediate(mode: UInt8, cuts: Bool) throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .ubloxM8
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    let first = try harness.stepText()
    let lastSentence = try #require(first.split(separator: "\r\n").last).prefix(6)
    // Into the next epoch: its first write is on the line, the rest of it paced at 9600 baud.
    let before = harness.emulator.statistics
    while harness.emulator.statistics.bytesSent == before.bytesSent {
      let next = try #require(harness.runtime.nextDeadlineNanoseconds)
      harness.clock.set(
        UTCInstant(nanosecondsSinceEpoch: max(next, harness.clock.now().nanoseconds)))
      harness.runtime.runDue()
    }
    #expect(harness.emulator.statistics.epochsSent == before.epochsSent, "the epoch is on the line")
    try harness.send(bytes: Self.reset(mode: mode), expectingRestarts: 1)
    let rest = try harness.stepWithoutReading()
    let written = harness.emulator.statistics.bytesSent - before.bytesSent
    let epoch = String(decoding: try harness.read(written), as: UTF8.self)
    let statistics = harness.emulator.statistics
    #expect(rest > 0 || cuts)
    if cuts {
      #expect(statistics.burstsCut == before.burstsCut + 1, "\(statistics)")
      #expect(statistics.epochsSent == before.epochsSent)
      #expect(!epoch.contains(lastSentence), "cut before \(lastSentence): \(epoch)")
    } else {
      #expect(statistics.burstsCut == before.burstsCut, "\(statistics)")
      #expect(statistics.epochsSent == before.epochsSent + 1)
      #expect(epoch.contains(lastSentence), "\(epoch)")
    }
  }

  /// An epoch of before the reset that the output delay has not let out yet is dropped too,
  /// not sent with the fix of before the cold start while the chip boots (found by review).
  @Test func anEpochHeldForItsJitterIsDroppedByAnImmediateReset() throws {
    var configuration = EmulatorConfiguration()
    configuration.profile = .ubloxM8
    configuration.outputDelay = try OutputDelay(
      nominalNanoseconds: 400_000_000, jitterNanoseconds: 300_000_000)
    let harness = try EmulatorHarness(configuration: configuration)
    defer { harness.stop() }
    _ = try harness.stepText()
    // Past the next epoch's instant, short of its delay (at least 100 ms): it is not out yet.
    let now = harness.clock.now().nanoseconds
    let nextSecond = (now / 1_000_000_000 + 1) * 1_000_000_000
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: nextSecond + 101_000_000))
    harness.runtime.runDue()
    let held =
      try #require(harness.runtime.nextDeadlineNanoseconds) - harness.clock.now().nanoseconds
    try #require(held > 0, "the epoch is out")
    let cutBefore = harness.emulator.statistics.burstsCut
    try harness.send(bytes: Self.reset(mode: 0x00), expectingRestarts: 1)
    let after = try harness.stepText()
    #expect(!after.contains("GGA"), "sent after the reset: \(after)")
    #expect(harness.emulator.statistics.burstsCut == cutBefore + 1)
  }
}
