import DeviceRuntime
import MockGPS
import MockGPSTestSupport
import Replay
import Testing

@testable import DeviceSources

/// An unpaced replay joins the epochs already due into one write (`JoinedEpochs`): the same
/// bytes in the same order, each epoch counted as it would be alone, one wait for the client
/// per write. On a line in memory with the manual clock.
@Suite(.blocking) struct JoinedEpochsTests {
  /// Three untimed epochs (each due once the line is free: at once, unpaced) of real
  /// sentences, about 300 bytes each.
  static func epochs() throws -> [ReplayEpoch] {
    let packets = try RealSentences.packets(bytes: 900)
    let third = packets.count / 3
    return [packets[..<third], packets[third..<(2 * third)], packets[(2 * third)...]].map {
      ReplayEpoch(offsetNanoseconds: nil, packets: Array($0))
    }
  }

  @Test func eachEpochIsCountedSentOnceAllItsBytesAreWritten() throws {
    let epochs = try Self.epochs()
    var joined = JoinedEpochs()
    for epoch in epochs { joined.append(epoch) }
    #expect(joined.bytes == epochs.flatMap(\.bytes))
    #expect(joined.epochCount == 3)
    let firstTwo = epochs[0].byteCount + epochs[1].byteCount
    var counters = DeviceStatistics()
    joined.count(written: firstTwo + 1, into: &counters)
    #expect(counters.epochsSent == 2)
    #expect(counters.packetsSent == epochs[0].packets.count + epochs[1].packets.count)
    #expect(counters.epochsWithoutClient == 1)
    #expect(counters.bytesWithoutClient == epochs[2].byteCount - 1)
  }

  /// A write's storage is kept for the next one's (`ReplayLoop` hands it on): emptied, it
  /// holds no epoch, keeps its capacity, and the next epochs fill it as a fresh one.
  @Test func emptiedItKeepsItsStorageAndJoinsAgainAsNew() throws {
    let epochs = try Self.epochs()
    var joined = JoinedEpochs()
    joined.append(epochs[0])
    joined.append(epochs[1])
    let capacity = joined.bytes.capacity
    joined.removeAll()
    #expect(joined.epochCount == 0 && joined.bytes.isEmpty)
    #expect(joined.bytes.capacity == capacity)
    joined.append(epochs[2])
    #expect(joined.bytes == epochs[2].bytes)
    var counters = DeviceStatistics()
    joined.count(written: epochs[2].byteCount, into: &counters)
    #expect(counters.epochsSent == 1 && counters.packetsSent == epochs[2].packets.count)
  }

  @Test func anEpochJoinsOnlyWithinTheByteLimit() throws {
    let epochs = try Self.epochs()
    var joined = JoinedEpochs()
    joined.append(epochs[0])
    let big = ReplayEpoch(
      offsetNanoseconds: nil,
      packets: try RealSentences.packets(bytes: JoinedEpochs.byteLimit - epochs[0].byteCount))
    #expect(joined.hasRoom(for: epochs[1]))
    #expect(!joined.hasRoom(for: big))
    joined.append(epochs[1])
    #expect(joined.epochCount == 2)
  }

  /// With 100 bytes of room, the three epochs due at the timeline's start go out as one write
  /// that waits for the client once, each epoch counted sent.
  @Test func epochsDueTogetherLeaveAsOneWrite() throws {
    let epochs = try Self.epochs()
    let harness = try ReplayTimingTests.harness(epochs, baud: 0)
    defer { harness.stop() }
    try harness.setClientRoom(100)
    #expect(harness.advance(byNanoseconds: 200 * ReplayTimingTests.millisecond) == 100)
    let all = epochs.flatMap(\.bytes)
    var read: [UInt8] = []
    for _ in 0..<all.count where read.count < all.count {
      read += try harness.read(harness.memoryLine?.unreadByteCount ?? 0)
      harness.advance(byNanoseconds: 0)
    }
    #expect(read == all)
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsDue == 3)
    #expect(statistics.epochsSent == 3)
    #expect(statistics.packetsSent == epochs.map(\.packets.count).reduce(0, +))
    #expect(statistics.clientWaits == 1)
    #expect(harness.emulator.isFinished)
  }

  /// A client that leaves in the middle of a joined write: each epoch it did not get whole is
  /// counted without a client, with the bytes it did not get.
  @Test func aClientThatLeavesMidWriteLeavesEachEpochNotWholeWithoutAClient() throws {
    let epochs = try Self.epochs()
    let harness = try ReplayTimingTests.harness(epochs, baud: 0)
    defer { harness.stop() }
    try harness.setClientRoom(epochs[0].byteCount + 10)
    #expect(
      harness.advance(byNanoseconds: 200 * ReplayTimingTests.millisecond)
        == epochs[0].byteCount + 10)
    try harness.closeClient()
    harness.advance(byNanoseconds: 0)
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsSent == 1)
    #expect(statistics.epochsWithoutClient == 2)
    #expect(statistics.bytesWithoutClient == epochs[1].byteCount + epochs[2].byteCount - 10)
  }

  /// An untimed epoch that did not fit in a write is due once that write has left, as it would
  /// be alone: a client that reads the write slowly does not make it late.
  @Test func anUntimedEpochLeftOutOfAWriteIsDueWhenTheWriteHasLeft() throws {
    let epochs = try [JoinedEpochs.byteLimit - 200, 900].map { byteCount in
      ReplayEpoch(offsetNanoseconds: nil, packets: try RealSentences.packets(bytes: byteCount))
    }
    var joined = JoinedEpochs()
    joined.append(epochs[0])
    #expect(!joined.hasRoom(for: epochs[1]))
    let harness = try ReplayTimingTests.harness(epochs, baud: 0)
    defer { harness.stop() }
    try harness.setClientRoom(4096)
    harness.advance(byNanoseconds: 200 * ReplayTimingTests.millisecond)
    let all = epochs.flatMap(\.bytes)
    var read: [UInt8] = []
    for _ in 0..<all.count where read.count < all.count {
      read += try harness.read(harness.memoryLine?.unreadByteCount ?? 0)
      harness.advance(byNanoseconds: 100 * ReplayTimingTests.millisecond)
    }
    #expect(read == all)
    let statistics = harness.emulator.statistics
    #expect(statistics.epochsSent == 2)
    #expect(statistics.epochsLate == 0, "\(statistics.largestLatenessNanoseconds) ns late")
  }

  /// Paced at a baud, the same epochs are not joined: each is its own burst.
  @Test func pacedEpochsAreNotJoined() throws {
    let epochs = try Self.epochs()
    let harness = try ReplayTimingTests.harness(epochs, baud: 9600)
    defer { harness.stop() }
    for epoch in epochs { #expect(try harness.step() == epoch.bytes) }
    #expect(harness.emulator.statistics.epochsSent == 3)
  }
}
