import Foundation
import Glibc
import MockGPS
import MockGPSTestSupport
import Replay
import Testing

/// A replay on a real pseudo-terminal: the bytes of the log as they were, at the log's times,
/// paced at the baud, and never dropped while a client reads.
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
    #expect(running.emulator.replayStatistics?.epochsSent == epochs.count)
    #expect(running.emulator.replayStatistics?.packetsSent == packets.count)
    // `status` counts the replay's epochs beside its bytes.
    let status = running.emulator.handle(.status).line
    #expect(status.contains(#""bytes_sent":\#(expected.count),"#), "\(status)")
    #expect(status.contains(#""epochs_sent":\#(epochs.count),"#), "\(status)")
  }

  @Test(arguments: [1.0, 10.0])
  func timedEpochsArriveAtTheirOffsets(timeScale: Double) throws {
    let offsets: [Int64] = [0, 200, 500, 1000, 1100].map { Int64(Double($0) * timeScale) }
    let epochs = try Self.timedEpochs(atMilliseconds: offsets)
    let running = try ReplayingEmulator(epochs, baud: 0, timeScale: timeScale)
    defer { running.stop() }
    let steal = try StealWatch.start()
    defer { steal.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    let lines = reader.readLines(epochs.count, timeoutSeconds: 5)
    try #require(lines.count == epochs.count)
    let first = lines[0].arrivalNanoseconds
    for (line, offset) in zip(lines, offsets) {
      let arrived = Double(line.arrivalNanoseconds - first) / 1e6
      let due = Double(offset) / timeScale
      // Typically within 0.3 ms; a loaded VM adds tails of a few milliseconds, and the CPU time
      // the hypervisor took since the first (`StealWatch`: a loaded run saw 11.9 ms).
      let taken = steal.stolenNanoseconds(
        fromNanoseconds: first - 150_000_000, untilNanoseconds: line.arrivalNanoseconds,
        on: .monotonic)
      #expect(
        abs(arrived - due) < 10 + Double(taken) / 1e6,
        "due at \(due) ms, arrived at \(arrived) ms, \(taken / 1_000_000) ms of CPU taken")
    }
    let late = running.emulator.replayStatistics?.epochsLate ?? 0
    #expect(steal.explains(late, lateBeyondNanoseconds: 10_000_000), "\(late) epochs late")
  }

  @Test func nothingIsSentBeforeTheClientHasSettledThenTheLogFromItsFirstByte() throws {
    let epochs = try Self.timedEpochs(atMilliseconds: [0, 100])
    let running = try ReplayingEmulator(epochs, baud: 0, settleSeconds: 0.5)
    defer { running.stop() }
    usleep(600_000)
    // Waiting for a client is not losing the log to its absence.
    #expect(running.emulator.replayStatistics?.epochsWithoutClient == 0)
    #expect(!running.emulator.isFinished)
    let opened = DeviceReader.monotonicNanoseconds()
    let reader = try DeviceReader(path: running.linkPath)
    let expected = epochs.flatMap(\.bytes)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 3)
    #expect(received.bytes == expected)
    let firstByte = Double((received.arrival(ofByteAt: 0) ?? 0) - opened) / 1e9
    #expect(firstByte > 0.5 && firstByte < 0.56, "first byte \(firstByte) s after the open")
  }

  @Test func anUntimedEpochIsPacedAtTheBaud() throws {
    let packets = try RealSentences.packets(bytes: 960)
    let byteCount = packets.map(\.bytes.count).reduce(0, +)
    let running = try ReplayingEmulator(
      [ReplayEpoch(offsetNanoseconds: nil, packets: packets)], baud: 9600)
    defer { running.stop() }
    let steal = try StealWatch.start()
    defer { steal.stop() }
    let opened = DeviceReader.monotonicNanoseconds()
    let reader = try DeviceReader(path: running.linkPath)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: byteCount, timeoutSeconds: 3)
    #expect(received.bytes.count == byteCount)
    // 960 bytes at 960 bytes a second, from the start of the timeline (0.2 s after the open):
    // at 9600 baud each sentence is a write of its own (40 ms of line time is 38 bytes), which
    // leaves when the line has carried the ones before, so the last one leaves after the line
    // time of all the others. Within 30 ms, and the CPU time the hypervisor took meanwhile
    // (`StealWatch`: a loaded run saw 37 ms).
    let lineSeconds = Double(byteCount - (packets.last?.bytes.count ?? 0)) / 960
    let lastRead = received.reads.last?.nanoseconds ?? 0
    let lastByte = Double(lastRead - opened) / 1e9 - 0.2
    let taken = Double(
      steal.stolenNanoseconds(fromNanoseconds: opened, untilNanoseconds: lastRead, on: .monotonic))
    #expect(
      abs(lastByte - lineSeconds) < 0.03 + taken / 1e9,
      "\(byteCount) bytes took \(lastByte) s, \(taken / 1e6) ms of CPU taken")
    // Spread over the second, not in one burst at its end (allowing for the CPU taken too: a
    // loaded run read the half 0.106 s late).
    let halfRead = received.arrival(ofByteAt: byteCount / 2) ?? 0
    let half = Double(halfRead - opened) / 1e9 - 0.2
    let takenByHalf = Double(
      steal.stolenNanoseconds(fromNanoseconds: opened, untilNanoseconds: halfRead, on: .monotonic))
    #expect(
      abs(half - lineSeconds / 2) < 0.1 + takenByHalf / 1e9,
      "half the bytes after \(half) s, \(takenByHalf / 1e6) ms of CPU taken")
  }

  @Test func unpacedTheSameEpochArrivesAtOnce() throws {
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
    // Within 30 ms of the timeline's start (0.2 s after the open), and the CPU time the
    // hypervisor took meanwhile (a loaded clean run read it 59 ms after).
    let lastRead = received.reads.last?.nanoseconds ?? 0
    let lastByte = Double(lastRead - opened) / 1e9 - 0.2
    let taken = Double(
      steal.stolenNanoseconds(fromNanoseconds: opened, untilNanoseconds: lastRead, on: .monotonic))
    #expect(
      lastByte < 0.03 + taken / 1e9,
      "\(byteCount) bytes took \(lastByte) s, \(taken / 1e6) ms of CPU taken")
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
      running.emulator.replayStatistics?.clientWaits == 1
    }
    #expect(waited, "the replay never waited for the client to read")
    usleep(200_000)
    let queued = running.emulator.statistics.bytesSent
    // Measured on Linux 6.18: 13824 bytes (the line discipline's 4 KiB and the terminal's buffer).
    print("the pseudo-terminal took \(queued) bytes before a write would block")
    #expect(queued > 4096 && queued < 80_000)
    #expect(running.emulator.replayStatistics?.clientWaits == 1)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 5)
    #expect(received.bytes == expected)
    #expect(running.emulator.replayStatistics?.bytesWithoutClient == 0)
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
    #expect(running.emulator.replayStatistics?.clientWaits ?? 0 > 0)
    #expect(running.emulator.replayStatistics?.epochsSent == epochs.count)
  }

  @Test func withoutAClientTheEpochsAreLostAndCounted() throws {
    let packets = try RealSentences.packets(count: 5)
    let epochs = packets.map { ReplayEpoch(offsetNanoseconds: nil, packets: [$0]) }
    let running = try ReplayingEmulator(epochs, baud: 0, waitsForClient: false)
    defer { running.stop() }
    for _ in 0..<200 where !running.emulator.isFinished { usleep(10_000) }
    #expect(running.emulator.isFinished)
    let statistics = try #require(running.emulator.replayStatistics)
    #expect(statistics.epochsWithoutClient == 5)
    #expect(statistics.bytesWithoutClient == packets.map(\.bytes.count).reduce(0, +))
    #expect(statistics.epochsSent == 0)
  }

  @Test func aLateEpochIsSentLateNotSkipped() throws {
    // The first epoch takes a second of line time at 9600 baud; the second is due during it.
    var epochs = [ReplayEpoch(offsetNanoseconds: 0, packets: try RealSentences.packets(bytes: 960))]
    epochs.append(
      ReplayEpoch(
        offsetNanoseconds: 300 * Self.millisecond, packets: try RealSentences.packets(count: 1)))
    let expected = epochs.flatMap(\.bytes)
    let running = try ReplayingEmulator(epochs, baud: 9600)
    defer { running.stop() }
    let reader = try DeviceReader(path: running.linkPath)
    let received = ReceivedBytes.read(
      from: reader.descriptor, count: expected.count, timeoutSeconds: 4)
    #expect(received.bytes == expected)
    #expect(running.emulator.replayStatistics?.epochsLate == 1)
    #expect(running.emulator.replayStatistics?.epochsSent == 2)
  }
}
