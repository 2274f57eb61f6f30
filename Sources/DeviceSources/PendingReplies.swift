/// The replies to commands waiting for their time and for the line, in order. Those whose time
/// has come (their command has arrived and been processed) are in the chip's transmit buffer,
/// which is bounded: a reply that falls due when the buffer has no room for it is dropped (the
/// newest go, as a chip drops output its full buffer has no room for), so that a client polling
/// faster than the line carries the answers costs bounded memory and work. Replies not due yet
/// answer commands still on their way in, which the pace of the client's input bounds
/// (`ClientInputPace`): a driver's burst of a thousand CFG-MSGs, read at once, gets every
/// acknowledgement, since each falls due as its command arrives and the line takes it.
struct PendingReplies {
  /// One reply and when it may leave.
  struct Reply {
    let bytes: [UInt8]
    /// Monotonic nanoseconds before which its first byte does not leave.
    let due: Int64
  }

  /// How many bytes of replies due may wait for the line: far more than a host's exchanges
  /// leave waiting (a driver's burst of polls, a few KiB), a second of a 115200-baud line. A
  /// reply longer than that is taken when no other is due.
  static let capacityBytes = 16_384
  /// Past this many bytes due and waiting, the next answer would most likely not fit (a poll's
  /// answer is some 100 to 500 bytes): a command's answer is dropped before it is made.
  static let fullBytes = capacityBytes - 512

  private(set) var replies: [Reply] = []
  /// The bytes of the replies due at the last `dropOverflow(now:)`: the transmit buffer's fill.
  private(set) var dueByteCount = 0

  var isEmpty: Bool { replies.isEmpty }
  var first: Reply? { replies.first }

  /// Queues `reply` behind the others.
  mutating func append(_ reply: Reply) {
    replies.append(reply)
  }

  /// Drops the replies due by `now` that do not fit in the transmit buffer behind the ones due
  /// before them; returns how many.
  mutating func dropOverflow(now: Int64) -> Int {
    let dueEnd = replies.firstIndex { $0.due > now } ?? replies.count
    let due = replies[..<dueEnd].reduce(0) { $0 + $1.bytes.count }
    guard due > Self.capacityBytes else {
      dueByteCount = due
      return 0
    }
    var (kept, keptBytes) = ([Reply](), 0)
    for reply in replies[..<dueEnd]
    where kept.isEmpty || keptBytes + reply.bytes.count <= Self.capacityBytes {
      kept.append(reply)
      keptBytes += reply.bytes.count
    }
    let dropped = dueEnd - kept.count
    replies = kept + replies[dueEnd...]
    dueByteCount = keptBytes
    return dropped
  }

  /// Takes the first reply.
  mutating func removeFirst() -> Reply {
    let reply = replies.removeFirst()
    dueByteCount = max(dueByteCount - reply.bytes.count, 0)
    return reply
  }

  /// Drops every reply (a restart cut the output).
  mutating func removeAll() {
    replies.removeAll()
    dueByteCount = 0
  }
}
