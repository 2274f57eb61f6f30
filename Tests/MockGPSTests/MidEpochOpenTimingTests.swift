import MockGPS
import MockGPSTestSupport
import NMEA
import Receiver
import TestFixtures
import Testing

/// Opening the device in the middle of an epoch, on the manual clock (`EmulatorHarness`): a
/// client gets what is on the wire from its open on, as from a UART, to the byte. At 1 Hz and
/// 9600 baud an epoch of about 500 bytes is on the line from each whole second for about half
/// a second.
@Suite(.blocking) struct MidEpochOpenTimingTests {
  /// The sentences of a burst, by type ("GGA"), the partial one it may start with left out.
  private static func types(_ burst: [UInt8]) -> [String] {
    var framer = Framer()
    return framer.append(burst).map { String($0.dropFirst(3).prefix(3)) }
  }

  /// A client that opens 200 ms into an epoch reads the rest of it from the byte the line had
  /// not started sending (192 bytes at 960 a second went before), then whole epochs.
  @Test func aClientOpeningMidEpochReadsTheRestOfIt() throws {
    let harness = try EmulatorHarness(
      configuration: EmulatorConfiguration(
        cadence: try CadencePlan(rateHz: 1), pacing: try BytePacing(baud: 9600)),
      holdsClient: false, device: .pseudoTerminal)  // the kernel's open, mid-burst
    defer { harness.stop() }
    var whole: [UInt8] = []
    do {
      let first = try DeviceReader(path: harness.linkPath)
      try harness.waitForClient()
      let count = try harness.stepWithoutReading()
      whole = ReceivedBytes.read(from: first.descriptor, count: count, timeoutSeconds: 5).bytes
      try #require(whole.count == count)
    }
    #expect(Eventually.holds(within: 5) { !harness.emulator.device.hasClients })
    let now = harness.clock.now().nanoseconds
    let second: Int64 = 1_000_000_000
    let open = (now / second + 1) * second + 200_000_000
    #expect(harness.advance(byNanoseconds: open - now) == 0)
    let reader = try DeviceReader(path: harness.linkPath)
    try harness.waitForClient(arrivals: 2)
    // Until 0.9 s into the second: the rest has left, the next epoch not begun.
    let rest = harness.advance(byNanoseconds: 700_000_000)
    let restBytes = ReceivedBytes.read(from: reader.descriptor, count: rest, timeoutSeconds: 5)
    #expect(restBytes.bytes.count == rest)
    #expect(rest == whole.count - 192, "\(rest) of \(whole.count)")
    #expect(Self.types(restBytes.bytes).last == Self.types(whole).last)
    #expect(Self.types(restBytes.bytes).first != Self.types(whole).first)
    #expect(harness.emulator.statistics.epochRestsSent == 1)
    let next = try harness.stepWithoutReading()
    let nextBytes = ReceivedBytes.read(from: reader.descriptor, count: next, timeoutSeconds: 5)
    #expect(Self.types(nextBytes.bytes) == Self.types(whole))
  }
}
