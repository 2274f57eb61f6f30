import MockGPS
import MockGPSTestSupport
import Receiver
import Simulation
import Synchronization
import TestFixtures
import Testing

/// A client at any speed but the chip's reads garbage, on the manual clock: speeds outside the
/// chip's table too (50 baud, 4 Mbaud), B0 as the 9600 baud Linux runs a UART at then, and a
/// change in the middle of an epoch applies from the next write of its burst on. The client's
/// terminal is a line in memory: its speed is what the test sets.
@Suite(.blocking, .timeLimit(.minutes(10))) struct UARTSpeedTests {
  /// A chip at `baud` whose first epoch has been read clean, with the epochs it sends after
  /// that as its listeners see them (clean).
  static func chip(baud: Int = 9600) throws -> (EmulatorHarness, SentEpochs) {
    var configuration = EmulatorConfiguration()
    configuration.pacing = try BytePacing(baud: baud)
    let harness = try EmulatorHarness(configuration: configuration, device: .memory)
    try harness.setClientSpeed(baud)
    _ = try harness.step()
    let epochs = SentEpochs()
    harness.emulator.addEpochListener { epochs.append(Array($0.packets.joined())) }
    return (harness, epochs)
  }

  /// What a UART at `clientBaud` makes of `bytes` sent at `chipBaud` on an idle line.
  static func garbled(_ bytes: some Sequence<UInt8>, chipBaud: Int = 9600, clientBaud: Int)
    -> [UInt8]
  {
    var line = UARTLine(senderBaud: chipBaud, receiverBaud: clientBaud)
    return line.send(bytes, idleBitsBefore: .max) + line.idle()
  }

  @Test(arguments: [50, 4_000_000]) func aSpeedOutsideTheTableGarbles(clientBaud: Int) throws {
    let (harness, epochs) = try Self.chip()
    defer { harness.stop() }
    try harness.setClientSpeed(clientBaud)
    let read = try harness.step()
    let clean = try #require(epochs.last)
    #expect(read == Self.garbled(clean, clientBaud: clientBaud))
    #expect(read != clean)
  }

  /// B0 hangs up the modem lines; the UART itself runs at 9600 baud, so a chip at 38400
  /// reads garbled as at 9600, and one at 9600 clean.
  @Test func atB0TheClientReadsAsAt9600() throws {
    let (fast, fastEpochs) = try Self.chip(baud: 38_400)
    defer { fast.stop() }
    try fast.setClientSpeed(0)
    let read = try fast.step()
    let clean = try #require(fastEpochs.last)
    #expect(read == Self.garbled(clean, chipBaud: 38_400, clientBaud: 9600))
    let (slow, slowEpochs) = try Self.chip(baud: 9600)
    defer { slow.stop() }
    try slow.setClientSpeed(0)
    #expect(try slow.step() == slowEpochs.last)
  }

  @Test func aChangeInTheMiddleOfAnEpochAppliesFromTheNextWrite() throws {
    let (harness, epochs) = try Self.chip()
    defer { harness.stop() }
    let written = harness.emulator.statistics.bytesSent
    // The epoch's first write, at its time: clean.
    let second: Int64 = 1_000_000_000
    let epochTime = (harness.clock.now().nanoseconds / second + 1) * second
    harness.clock.set(UTCInstant(nanosecondsSinceEpoch: epochTime))
    harness.runtime.runDue()
    let firstWrite = harness.emulator.statistics.bytesSent - written
    try #require(firstWrite > 0)
    try harness.setClientSpeed(4800)
    let rest = try harness.stepWithoutReading()
    let read = try harness.read(firstWrite + rest)
    let clean = try #require(epochs.last)
    try #require(clean.count > firstWrite, "an epoch of more than one write")
    #expect(Array(read.prefix(firstWrite)) == Array(clean.prefix(firstWrite)))
    #expect(
      Array(read.dropFirst(firstWrite))
        == Self.garbled(clean.dropFirst(firstWrite), clientBaud: 4800))
  }
}

/// The epochs a device sent, as its listeners see them (clean).
final class SentEpochs: Sendable {
  private let epochs = Mutex<[[UInt8]]>([])
  func append(_ bytes: [UInt8]) { epochs.withLock { $0.append(bytes) } }
  var last: [UInt8]? { epochs.withLock { $0.last } }
}
