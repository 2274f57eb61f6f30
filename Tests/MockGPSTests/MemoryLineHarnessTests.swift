import DeviceRuntime
import DeviceTerminal
import MockGPS
import MockGPSTestSupport
import Receiver
import Replay
import Simulation
import TestFixtures
import Testing

/// The harness on a line in memory (`EmulatorHarness.Device.memory`): the same bytes as through
/// a pseudo-terminal, and what the kernel would decide (the client's room, its open and close)
/// set by the test instead, at once.
@Suite(.blocking, .timeLimit(.minutes(10))) struct MemoryLineHarnessTests {
  /// An MTK's first steps, a command and its reply: what the harness's client reads.
  static func session(on device: EmulatorHarness.Device) throws -> ([UInt8], DeviceStatistics) {
    var configuration = EmulatorConfiguration()
    configuration.profile = .mtk
    let harness = try EmulatorHarness(configuration: configuration, device: device)
    defer { harness.stop() }
    var bytes = try harness.step() + harness.step()
    try harness.send("$PMTK605*31\r\n", expectingReplies: 1)
    bytes += try harness.step() + harness.step()
    return (bytes, harness.emulator.statistics)
  }

  @Test func aMemoryLineCarriesTheBytesAPseudoTerminalDoes() throws {
    let (memory, memoryCounts) = try Self.session(on: .memory)
    let (terminal, terminalCounts) = try Self.session(on: .pseudoTerminal)
    #expect(memory == terminal)
    #expect(String(decoding: memory, as: UTF8.self).contains("$PMTK011,MTKGPS*08"))
    #expect(String(decoding: memory, as: UTF8.self).contains("$PMTK705"))
    #expect(memoryCounts.bytesSent == memory.count)
    #expect(memoryCounts.commandsReceived == terminalCounts.commandsReceived)
    #expect(memoryCounts.epochsSent == terminalCounts.epochsSent)
  }

  /// A replay waits for room (`waitForRoom`): with 100 bytes of room it writes 100, waits
  /// without a deadline, and goes on each time the client reads, until the epoch is through,
  /// whole and in order.
  @Test func aReplayWaitsForRoomAndGoesOnWhenTheClientReads() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let epoch = ReplayEpoch(offsetNanoseconds: nil, packets: packets)
    let harness = try ReplayTimingTests.harness([epoch], baud: 0)
    defer { harness.stop() }
    try harness.setClientRoom(100)
    #expect(harness.advance(byNanoseconds: 200 * ReplayTimingTests.millisecond) == 100)
    #expect(harness.runtime.nextDeadlineNanoseconds == Int64.max)
    #expect(throws: EmulatorHarness.StepError.self) { try harness.stepWithoutReading() }
    var read: [UInt8] = []
    for _ in 0..<epoch.bytes.count {
      guard read.count < epoch.bytes.count else { break }
      read += try harness.read(harness.memoryLine?.unreadByteCount ?? 0)
      harness.advance(byNanoseconds: 0)
    }
    #expect(read == epoch.bytes)
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsSent == 1)
    #expect(statistics.clientWaits == 1)
    #expect(harness.emulator.isFinished)
  }

  /// A simulated chip drops an epoch whole when the client's queue has no room for it (a UART
  /// overrun, `dropEpoch`), and sends the next once the client has read.
  @Test func aChipDropsAnEpochTheClientHasNoRoomFor() throws {
    let harness = try EmulatorHarness(device: .memory)
    defer { harness.stop() }
    let first = try harness.step()
    try harness.setClientRoom(first.count / 2)
    #expect(try harness.stepWithoutReading() == 0)
    #expect(harness.emulator.statistics.epochsOverrun == 1)
    try harness.setClientRoom(SerialDevice.unreadCapacity)
    #expect(try harness.step().count > 0)
    #expect(harness.emulator.statistics.epochsSent == 2)
  }

  /// A client that closes while a replay waits for room ends the wait: the write fails, what
  /// was unread is gone, and the replay waits for its next client.
  @Test func aClientThatClosesEndsAWaitForRoom() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let harness = try ReplayTimingTests.harness(
      [ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 0)
    defer { harness.stop() }
    try harness.setClientRoom(100)
    #expect(harness.advance(byNanoseconds: 200 * ReplayTimingTests.millisecond) == 100)
    try harness.closeClient()
    #expect(harness.memoryLine?.unreadByteCount == 0)
    #expect(harness.advance(byNanoseconds: 0) == 0)
    #expect(!harness.emulator.device.hasClients)
    #expect(harness.emulator.statistics.clientWaits == 1)
  }

  /// A passthrough on a memory line forwards what its client writes to the real receiver, in
  /// order, also past a receiver that stops reading: the client's input is held back past the
  /// passthrough's high-water mark (`holdClientInput`) and handed over once the receiver reads
  /// again. The receiver is a terminal: its side waits for the kernel, bounded.
  @Test func aPassthroughForwardsWhatItsClientWritesAlsoPastAHold() throws {
    let rig = try PassthroughHarnessTests.Rig(device: .memory)
    defer { rig.stop() }
    rig.receiver.pauseReading(true)
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1024)
    var written: [UInt8] = []
    while written.count < 2 * 65_536 {
      rig.harness.emulator.device.writeFromMemoryClient(chunk)
      written += chunk
    }
    // Held: not everything was read from the client.
    #expect(rig.harness.emulator.statistics.clientBytesReceived < written.count)
    rig.receiver.pauseReading(false)
    // The receiver gets each chunk before the device counts it: wait for both.
    #expect(
      Eventually.holds(within: 5) {
        rig.receiver.received.count >= written.count
          && rig.harness.emulator.statistics.clientBytesReceived == written.count
      })
    #expect(rig.receiver.received == written)
  }
}
