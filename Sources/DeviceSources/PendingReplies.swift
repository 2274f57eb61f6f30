/// The replies to commands waiting for the line, in order, bounded as a chip's transmit buffer
/// is: a reply that does not fit behind those waiting is dropped (the newest go, as a chip
/// drops output its full buffer has no room for), so that a client polling faster than the
/// line carries the answers costs bounded memory and work.
struct PendingReplies {
  /// One reply and when it may leave.
  struct Reply {
    let bytes: [UInt8]
    /// Monotonic nanoseconds before which its first byte does not leave.
    let due: Int64
  }

  /// How many bytes of replies may wait: far more than a host's configuration queues at once
  /// (a driver's burst of polls and settings, a few KiB at most), a second of a 115200-baud
  /// line. A reply longer than that is taken when nothing waits.
  static let capacityBytes = 16_384
  /// Past this many bytes waiting, the next answer would most likely not fit (a poll's answer
  /// is some 100 to 500 bytes): a command's answer is dropped before it is made.
  static let fullBytes = capacityBytes - 512

  private(set) var replies: [Reply] = []
  /// The bytes of `replies`.
  private(set) var byteCount = 0

  var isEmpty: Bool { replies.isEmpty }
  var first: Reply? { replies.first }

  /// Queues `reply` behind the others when it fits; false when it was dropped.
  mutating func append(_ reply: Reply) -> Bool {
    guard replies.isEmpty || byteCount + reply.bytes.count <= Self.capacityBytes else {
      return false
    }
    replies.append(reply)
    byteCount += reply.bytes.count
    return true
  }

  /// Takes the first reply.
  mutating func removeFirst() -> Reply {
    let reply = replies.removeFirst()
    byteCount -= reply.bytes.count
    return reply
  }

  /// Drops every reply (a restart cut the output).
  mutating func removeAll() {
    replies.removeAll()
    byteCount = 0
  }
}
