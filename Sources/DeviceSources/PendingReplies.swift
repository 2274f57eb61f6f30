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

  /// The replies queued, of which the first `head` have been taken: taking one moves no other
  /// (a driver's burst of 3,000 CFG-MSGs leaves 3,000 acknowledgements waiting, which
  /// `Array.removeFirst` moved 4.5 million times), and the taken ones are let go once they are
  /// half of the array.
  private var storage: [Reply] = []
  private var head = 0
  /// The bytes of the replies due at the last `dropOverflow(now:)`: the transmit buffer's fill.
  private(set) var dueByteCount = 0

  /// The replies waiting, in order.
  var replies: ArraySlice<Reply> { storage[head...] }
  var isEmpty: Bool { head == storage.count }
  var first: Reply? { isEmpty ? nil : storage[head] }

  /// Queues `reply` behind the others.
  mutating func append(_ reply: Reply) {
    storage.append(reply)
  }

  /// Drops the replies due by `now` that do not fit in the transmit buffer behind the ones due
  /// before them; returns how many.
  mutating func dropOverflow(now: Int64) -> Int {
    let waiting = replies
    let dueEnd = waiting.firstIndex { $0.due > now } ?? waiting.endIndex
    let due = waiting[..<dueEnd].reduce(0) { $0 + $1.bytes.count }
    guard due > Self.capacityBytes else {
      dueByteCount = due
      return 0
    }
    var (kept, keptBytes) = ([Reply](), 0)
    for reply in waiting[..<dueEnd]
    where kept.isEmpty || keptBytes + reply.bytes.count <= Self.capacityBytes {
      kept.append(reply)
      keptBytes += reply.bytes.count
    }
    let dropped = dueEnd - waiting.startIndex - kept.count
    storage = kept + waiting[dueEnd...]
    head = 0
    dueByteCount = keptBytes
    return dropped
  }

  /// Takes the first reply.
  mutating func removeFirst() -> Reply {
    let reply = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    dueByteCount = max(dueByteCount - reply.bytes.count, 0)
    return reply
  }

  /// Drops every reply (a restart cut the output).
  mutating func removeAll() {
    storage.removeAll()
    head = 0
    dueByteCount = 0
  }
}
