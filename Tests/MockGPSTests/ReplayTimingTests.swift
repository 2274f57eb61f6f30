import MockGPS
import MockGPSTestSupport
import Receiver
import Replay
import Simulation
import TestFixtures
import Testing

/// A replay's timeline and pacing on the manual clock (`EmulatorHarness`): when each epoch of
/// the log is written, to the nanosecond of virtual time, without sleeping, on a line in
/// memory. What the kernel decides (a full queue, a slow client) stays with
/// `ReplayDeviceTests`.
@Suite(.blocking) struct ReplayTimingTests {
  static let millisecond: Int64 = 1_000_000

  /// A harness replaying `epochs` at `baud`, waiting for its client and settling `settleSeconds`.
  static func harness(
    _ epochs: [ReplayEpoch], baud: Int, timeScale: Double = 1, settleSeconds: Double = 0.2,
    holdsClient: Bool = true
  ) throws -> EmulatorHarness {
    let configuration = EmulatorConfiguration(
      source: .replay(
        path: "made-up", ReplayPlayback(waitsForClient: true, settleSeconds: settleSeconds)),
      pacing: try BytePacing(baud: baud), groupName: nil, timeScale: timeScale)
    return try EmulatorHarness(
      replaying: MadeUpEpochs(epochs), configuration: configuration, holdsClient: holdsClient,
      device: .memory)
  }

  @Test(arguments: [1.0, 10.0])
  func timedEpochsAreWrittenAtTheirOffsets(timeScale: Double) throws {
    let offsets: [Int64] = [0, 200, 500, 1000, 1100].map { Int64(Double($0) * timeScale) }
    let epochs = try ReplayDeviceTests.timedEpochs(atMilliseconds: offsets)
    let harness = try Self.harness(epochs, baud: 0, timeScale: timeScale)
    defer { harness.stop() }
    let opened = harness.clock.now().nanoseconds
    for (epoch, offset) in zip(epochs, offsets) {
      #expect(try harness.step() == epoch.bytes)
      let written = harness.clock.now().nanoseconds - opened
      // The timeline starts 0.2 s after the client opened; the log's offsets compress by X.
      #expect(written == 200 * Self.millisecond + Int64(Double(offset) / timeScale) * 1_000_000)
    }
    #expect(harness.emulator.statistics.epochsLate == 0)
    #expect(harness.emulator.statistics.epochsSent == epochs.count)
    #expect(harness.emulator.isFinished)
  }

  @Test func nothingIsSentBeforeTheClientHasSettledThenTheLogFromItsFirstByte() throws {
    let epochs = try ReplayDeviceTests.timedEpochs(atMilliseconds: [0, 100])
    let harness = try Self.harness(epochs, baud: 0, settleSeconds: 0.5, holdsClient: false)
    defer { harness.stop() }
    // An hour without a client: nothing sent, nothing lost, the log not begun.
    #expect(harness.advance(byNanoseconds: 3600 * 1_000_000_000) == 0)
    #expect(harness.emulator.statistics.epochsWithoutClient == 0)
    #expect(!harness.emulator.isFinished)
    try harness.openClient()
    let opened = harness.clock.now().nanoseconds
    #expect(harness.advance(byNanoseconds: 500 * Self.millisecond - 1) == 0)
    #expect(harness.advance(byNanoseconds: 1) == epochs[0].bytes.count)
    #expect(harness.clock.now().nanoseconds - opened == 500 * Self.millisecond)
    #expect(harness.advance(byNanoseconds: 100 * Self.millisecond) == epochs[1].bytes.count)
    #expect(try harness.read(epochs.flatMap(\.bytes).count) == epochs.flatMap(\.bytes))
  }

  @Test func anUntimedEpochIsPacedAtTheBaud() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let byteCount = packets.map(\.bytes.count).reduce(0, +)
    let harness = try Self.harness(
      [ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 9600)
    defer { harness.stop() }
    let opened = harness.clock.now().nanoseconds
    // At 9600 baud each sentence is a write of its own (40 ms of line time is 38 bytes), which
    // leaves when the line has carried the ones before: the first at the timeline's start
    // (0.2 s after the open), the last after the line time of all the others.
    let atStart = harness.advance(byNanoseconds: 200 * Self.millisecond)
    #expect(atStart > 0 && atStart < 100, "\(atStart) bytes at the start")
    let lineNanoseconds = Int64(byteCount - (packets.last?.bytes.count ?? 0)) * 1_000_000_000 / 960
    // Spread over the second, not in one burst at its end: half the line time, about half.
    let half = harness.advance(byNanoseconds: lineNanoseconds / 2)
    #expect(abs(atStart + half - byteCount / 2) < 100, "\(atStart + half) bytes in the first half")
    let rest = try harness.stepWithoutReading()
    #expect(rest == byteCount - atStart - half, "\(atStart) + \(half) + \(rest) of \(byteCount)")
    let last = harness.clock.now().nanoseconds - opened - 200 * Self.millisecond
    #expect(abs(last - lineNanoseconds) < Self.millisecond, "last write after \(last) ns")
    #expect(harness.emulator.statistics.epochsSent == 1)
    #expect(try harness.read(byteCount) == packets.flatMap(\.bytes))
  }

  @Test func unpacedTheSameEpochIsWrittenAtOnce() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let harness = try Self.harness([ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 0)
    defer { harness.stop() }
    let opened = harness.clock.now().nanoseconds
    #expect(try harness.step() == packets.flatMap(\.bytes))
    // In one write at the timeline's start, 0.2 s after the open.
    #expect(harness.clock.now().nanoseconds - opened == 200 * Self.millisecond)
  }

  @Test func aLateEpochIsSentLateNotSkipped() throws {
    // The first epoch takes a second of line time at 9600 baud; the second is due during it.
    let first = try RealSentences.packets(bytes: 960)
    let epochs = [
      ReplayEpoch(offsetNanoseconds: 0, packets: first),
      ReplayEpoch(
        offsetNanoseconds: 300 * Self.millisecond, packets: try RealSentences.packets(count: 1)),
    ]
    let harness = try Self.harness(epochs, baud: 9600)
    defer { harness.stop() }
    let start = harness.clock.now().nanoseconds + 200 * Self.millisecond
    #expect(try harness.step() == epochs[0].bytes)
    #expect(try harness.step() == epochs[1].bytes)
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsLate == 1)
    #expect(statistics.epochsSent == 2)
    #expect(statistics.packetsSent == first.count + 1)
    // Sent when the line had carried the first: its line time, less the 300 ms it was due at.
    let lineFree = harness.clock.now().nanoseconds - start
    let lateness = statistics.largestLatenessNanoseconds
    #expect(lateness == lineFree - 300 * Self.millisecond, "late by \(lateness) ns")
    // About the line time of the first epoch's bytes at 960 bytes a second.
    let lineTime = Int64(first.map(\.bytes.count).reduce(0, +)) * 1_000_000_000 / 960
    #expect(abs(lineFree - lineTime) < Self.millisecond, "\(lineFree) ns, not \(lineTime)")
  }
}
