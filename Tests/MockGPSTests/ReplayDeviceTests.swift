import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Replay
import TestFixtures
import Testing

/// A replay on a real pseudo-terminal: the bytes of the log as they were, sent as soon as the
/// kernel shows the client, and never dropped while a client reads. The timeline's logic (the
/// log's times, the pacing, lateness) is tested on the manual clock (`ReplayTimingTests`).
@Suite(.blocking, .serialized) struct ReplayDeviceTests {
  static let millisecond: Int64 = 1_000_000

  /// Epochs of one real sentence each, at `offsets` milliseconds of log time.
  static func timedEpochs(atMilliseconds offsets: [Int64]) throws -> [ReplayEpoch] {
    let packets = try RealSentences.packets(count: offsets.count)
    return zip(offsets, packets).map {
      ReplayEpoch(offsetNanoseconds: $0 * millisecond, packets: [$1])
    }
  }

  @Test func theBytesArriveIdenticalAndInOrder() throws {
    let packets = try RealSentences.packets(count: 300)
    let epochs = stride(from: 0, to: packets.count, by: 3).map {
      ReplayEpoch(offsetNanoseconds: nil, packets: Array(packets[$0..<min($0 + 3, packets.count)]))
    }
    let expected = epochs.flatMap(\.bytes)
    let running = try ReplayingEmulator(epochs, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 5)
    #expect(received.bytes == expected)
    // The bytes reach the client as the last write returns, and the epoch thread counts them
    // just after: a loaded machine may hold it between the two (a loaded clean clone's run read
    // every byte and found the last write of 5,724 uncounted, with the thread at the ordinary
    // priority after its wait for room, a change since reverted; without root it always is).
    #expect(Self.counted(epochs.count, by: running))
    #expect(running.emulator.statistics.packetsSent == packets.count)
    // `status` counts the replay's epochs beside its bytes.
    let status = running.emulator.handle(.status).line
    #expect(status.contains(#""bytes_sent":\#(expected.count),"#), "\(status)")
    #expect(status.contains(#""epochs_sent":\#(epochs.count),"#), "\(status)")
  }

  /// The client's open is seen at once, so that the timeline starts its settle time (0.2 s)
  /// at the open, not at the idle recheck a second later. A clean clone's CI once read the
  /// last byte 1.0005 s late: the look that asked the terminal just before the open had read
  /// and dropped the node's report of it with the emulator's own (`DeviceLineLookTests`).
  /// The bound tells those two apart and nothing finer: a loaded run of the suite read it 0.11 s
  /// late with no steal (the writer waits for a CPU like any thread); that the epoch is written
  /// at once, unpaced, is `ReplayTimingTests`' on the manual clock.
  @Test func theReplayStartsAtTheClientsOpenNotASecondLater() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let byteCount = packets.map(\.bytes.count).reduce(0, +)
    let running = try ReplayingEmulator(
      [ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 0)
    defer { running.stop() }
    let steal = try StealWatch.start()
    defer { steal.stop() }
    let opened = DeviceReader.monotonicNanoseconds()
    let reader = try DeviceReader(path: running.linkPath)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: byteCount, timeoutSeconds: 3)
    #expect(received.bytes.count == byteCount)
    let lastRead = received.reads.last?.nanoseconds ?? 0
    let lastByte = Double(lastRead - opened) / 1e9 - 0.2
    let taken = Double(
      steal.stolenNanoseconds(fromNanoseconds: opened, untilNanoseconds: lastRead, on: .monotonic))
    #expect(
      lastByte < 0.5 + taken / 1e9,
      "\(byteCount) bytes took \(lastByte) s after the settle time, \(taken / 1e6) ms of CPU taken")
  }

  /// The pseudo-terminal queues what a client has not read, then takes no more: the replay
  /// waits there (once) instead of dropping, and the client later gets every byte.
  @Test func aClientThatDoesNotReadMakesTheReplayWaitAndLosesNothing() throws {
    let packets = try RealSentences.packets(bytes: 200_000)
    let expected = packets.flatMap(\.bytes)
    let running = try ReplayingEmulator(
      [ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    // The replay fills the queue as soon as it sees the client, then waits; a loaded machine
    // may take a while to get there (the clean clone's CI saw nothing sent after 0.8 s).
    let waited = Eventually.holds(within: 10) {
      running.emulator.statistics.clientWaits == 1
    }
    #expect(waited, "the replay never waited for the client to read")
    usleep(200_000)
    let queued = running.emulator.statistics.bytesSent
    // Measured on Linux 6.18: 13824 bytes (the line discipline's 4 KiB and the terminal's buffer).
    print("the pseudo-terminal took \(queued) bytes before a write would block")
    #expect(queued > 4096 && queued < 80_000)
    #expect(running.emulator.statistics.clientWaits == 1)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 5)
    #expect(received.bytes == expected)
    #expect(running.emulator.statistics.bytesWithoutClient == 0)
  }

  @Test func aSlowClientGetsEveryByte() throws {
    let packets = try RealSentences.packets(bytes: 80_000)
    let epochs = stride(from: 0, to: packets.count, by: 10).map {
      ReplayEpoch(offsetNanoseconds: nil, packets: Array(packets[$0..<min($0 + 10, packets.count)]))
    }
    let expected = epochs.flatMap(\.bytes)
    let running = try ReplayingEmulator(epochs, baud: 0)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    // 1 KiB every 50 ms: 20 KiB a second, far below what the replay could write.
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 8, chunk: 1024,
      pauseMicroseconds: 50_000)
    #expect(received.bytes == expected)
    #expect(running.emulator.statistics.clientWaits > 0)
    #expect(Self.counted(epochs.count, by: running))
  }

  /// Whether `running` counts `epochs` sent within 5 s: once every byte is read, the last write
  /// is counted just after it returned (see `theBytesArriveIdenticalAndInOrder`).
  static func counted(_ epochs: Int, by running: ReplayingEmulator) -> Bool {
    Eventually.holds(within: 5) { running.emulator.statistics.epochsSent == epochs }
  }

  @Test func withoutAClientTheEpochsAreLostAndCounted() throws {
    let packets = try RealSentences.packets(count: 5)
    let epochs = packets.map { ReplayEpoch(offsetNanoseconds: nil, packets: [$0]) }
    let running = try ReplayingEmulator(epochs, baud: 0, waitsForClient: false)
    defer { running.stop() }
    for _ in 0..<200 where !running.emulator.isFinished { usleep(10_000) }
    #expect(running.emulator.isFinished)
    let statistics = running.emulator.statistics
    #expect(statistics.epochsWithoutClient == 5)
    #expect(statistics.bytesWithoutClient == packets.map(\.bytes.count).reduce(0, +))
    #expect(statistics.epochsSent == 0)
  }
}
