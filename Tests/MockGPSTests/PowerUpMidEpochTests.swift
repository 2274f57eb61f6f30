import MockGPS
import MockGPSTestSupport
import Receiver
import TestFixtures
import Testing

/// A chip with a power-up banner whose first client opens while an epoch that fell due without
/// a client would still be on the line, on the manual clock with a real terminal (the open is
/// the kernel's). The chip powers up as its first client opens, so nothing of before is on its
/// line: the client reads the banner, then whole sentences. Before, the rest of that epoch went
/// out after the banner, a sentence's tail between whole ones (seen with the F9P's banner and
/// ACKs on a real run: "…PF=3FF*4B", three ACK-ACKs, then "A,A*7E").
@Suite(.blocking) struct PowerUpMidEpochTests {
  @Test func theFirstClientOpeningMidEpochReadsTheBannerThenWholeSentences() throws {
    var configuration = EmulatorConfiguration(
      cadence: try CadencePlan(rateHz: 1), pacing: try BytePacing(baud: 115_200))
    configuration.profile = .ubloxF9P
    let harness = try EmulatorHarness(
      configuration: configuration, holdsClient: false, device: .pseudoTerminal)
    defer { harness.stop() }
    // 20 ms into an epoch past the chip's boot: at 115200 baud its burst lasts about 90 ms, so
    // its rest, after the banner's 40 ms, would still be within the quarter second it may be late.
    let now = harness.clock.now().nanoseconds
    let second: Int64 = 1_000_000_000
    let open = (now / second + 3) * second + 20_000_000
    #expect(harness.advance(byNanoseconds: open - now) == 0)
    let reader = try DeviceReader(path: harness.linkPath)
    try harness.waitForClient()
    let count = harness.advance(byNanoseconds: 1_500_000_000)
    let received = ReceivedBytes.read(from: reader.descriptor, count: count, timeoutSeconds: 5)
    #expect(received.bytes.count == count)
    let text = String(decoding: received.bytes, as: UTF8.self)
    #expect(text.hasPrefix("$GNTXT"), "\(text.prefix(80))")
    #expect(text.hasSuffix("\r\n"))
    for line in text.split(separator: "\r\n") {
      #expect(line.hasPrefix("$") && !line.dropFirst().contains("$"), "\(line)")
    }
    #expect(harness.emulator.statistics.epochRestsSent == 0)
  }

  /// The first client opens during a step, between an epoch that fell due without it and the
  /// step's end (here from an epoch listener, on the step's thread; on a real run, the I/O
  /// thread sees the open while the step runs): the step must not write the rest of that epoch
  /// to it, since the banner its arrival queued reaches only the next step. Before, the rest
  /// went out first and the banner after it.
  @Test func aClientThatOpensDuringAStepGetsTheBannerBeforeAnyEpoch() throws {
    var configuration = EmulatorConfiguration(
      cadence: try CadencePlan(rateHz: 1), pacing: try BytePacing(baud: 115_200))
    configuration.profile = .ubloxF9P
    let harness = try EmulatorHarness(configuration: configuration, holdsClient: false)
    defer { harness.stop() }
    let device = harness.emulator.device
    harness.emulator.addEpochListener { _ in device.openMemoryClient() }
    let sent = harness.advance(byNanoseconds: 3_000_000_000)
    let line = try #require(device.memoryLine)
    let text = String(decoding: line.read(), as: UTF8.self)
    #expect(sent == text.utf8.count)
    #expect(text.hasPrefix("$GNTXT"), "\(text.prefix(80))")
    for sentence in text.split(separator: "\r\n") {
      #expect(sentence.hasPrefix("$") && !sentence.dropFirst().contains("$"), "\(sentence)")
    }
    #expect(harness.emulator.statistics.epochRestsSent == 0)
  }
}
