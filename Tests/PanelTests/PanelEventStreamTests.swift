import Testing

@testable import Panel

/// The queue of one event stream, without a network: what a browser has read is let go.
@Suite struct PanelEventStreamTests {
  /// A browser that reads a little less than comes in each turn never empties the queue (it
  /// fills, and lines are dropped); the bytes the stream holds stay bounded all the same
  /// (before, they grew by every byte the stream ever sent: 9 MB here).
  @Test func aReaderThatNeverCatchesUpLeavesTheBufferBounded() {
    let stream = PanelEventStream(first: [], now: 0)
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
    var buffer = [CChar](repeating: 0, count: 900)
    var received = 0
    var largestHeld = 0
    for turn in 1...10_000 {
      stream.queue(line, now: Int64(turn))
      received += buffer.withUnsafeMutableBufferPointer {
        stream.read(into: $0.baseAddress, capacity: $0.count)
      }
      largestHeld = max(largestHeld, stream.bytesHeld)
    }
    #expect(received == 9_000_000, "the reader found 900 bytes at every turn")
    #expect(stream.linesDropped > 0)
    #expect(largestHeld <= 4 * PanelEventStream.maximumBacklog + 4096, "held \(largestHeld) bytes")
  }

  /// The bytes come out as they went in, across the buffer's compactions: the reader takes
  /// less than comes (the queue fills and lines are dropped), so the stream lets go of what was
  /// read many times over; what is read is the accepted lines, whole and in order.
  @Test func theBytesReadAreTheAcceptedLinesInOrder() {
    let stream = PanelEventStream(first: Array("start\n".utf8), now: 0)
    var expected = Array("start\n".utf8)
    var read: [UInt8] = []
    var buffer = [CChar](repeating: 0, count: 64)
    var largestHeld = 0
    for turn in 0..<20_000 {
      let line = Array("line \(turn) \(String(repeating: "y", count: turn % 50))\n".utf8)
      if stream.queue(line, now: Int64(turn)) { expected += line }
      let count = buffer.withUnsafeMutableBufferPointer {
        stream.read(into: $0.baseAddress, capacity: 20 + turn % 13)
      }
      read += buffer[..<count].map { UInt8(bitPattern: $0) }
      largestHeld = max(largestHeld, stream.bytesHeld)
    }
    #expect(stream.linesDropped > 0)
    #expect(expected.count > 8 * PanelEventStream.maximumBacklog, "many backlogs went through")
    #expect(largestHeld <= 4 * PanelEventStream.maximumBacklog + 4096, "held \(largestHeld)")
    // Read what is left; not past it (an empty stream suspends its connection).
    while read.count < expected.count {
      let count = buffer.withUnsafeMutableBufferPointer {
        stream.read(into: $0.baseAddress, capacity: min($0.count, expected.count - read.count))
      }
      read += buffer[..<count].map { UInt8(bitPattern: $0) }
    }
    #expect(read == expected)
  }
}
