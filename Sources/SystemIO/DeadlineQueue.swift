/// Keys waiting for their deadlines, earliest first: the timers of an `IOLoop`. (The runtime's
/// scheduler of epochs has a queue of its own, `TaskQueue`, which hashes nothing and keeps the
/// order of tasks due together.)
///
/// Pure: a binary min-heap of (deadline, order of scheduling, key); the thread reads its clock
/// and sleeps. A key is in the queue at most once: scheduling it again moves it. Moved and
/// removed keys leave their old entries behind, skipped when they reach the top and compacted
/// away when they outnumber the live ones, so that every operation is O(log n).
/// Keys due at the same instant come out in the order they were scheduled.
///
/// Inlinable, so that a user in another module runs a copy specialised for its key:
/// unspecialised, each operation looked up generic metadata and hashed through witness tables
/// (when the scheduler of epochs used it, about a tenth of the instructions of an epoch).
public struct DeadlineQueue<Key: Hashable & Sendable>: Sendable {
  @usableFromInline
  struct Entry: Sendable {
    @usableFromInline var deadline: Int64
    @usableFromInline var order: UInt64
    @usableFromInline var key: Key

    @inlinable
    init(deadline: Int64, order: UInt64, key: Key) {
      self.deadline = deadline
      self.order = order
      self.key = key
    }

    @inlinable
    func precedes(_ other: Entry) -> Bool {
      (deadline, order) < (other.deadline, other.order)
    }
  }

  @usableFromInline var heap: [Entry] = []
  /// The live entry of each key: its deadline and order.
  @usableFromInline var live: [Key: (deadline: Int64, order: UInt64)] = [:]
  @usableFromInline var nextOrder: UInt64 = 0

  /// Creates an empty queue.
  @inlinable
  public init() {}

  /// How many keys are waiting.
  @inlinable
  public var count: Int { live.count }

  /// True when no key is waiting.
  @inlinable
  public var isEmpty: Bool { live.isEmpty }

  /// The earliest deadline of all keys, or nil when none is waiting.
  @inlinable
  public var earliestDeadline: Int64? { heap.first?.deadline }

  /// When `key` is due, or nil when it is not waiting.
  @inlinable
  public func deadline(of key: Key) -> Int64? { live[key]?.deadline }

  /// Schedules `key` at `deadline`, moving it if it was waiting.
  @inlinable
  public mutating func schedule(_ key: Key, at deadline: Int64) {
    let order = nextOrder
    nextOrder &+= 1
    live[key] = (deadline, order)
    push(Entry(deadline: deadline, order: order, key: key))
    discardStaleTop()
    compactIfMostlyStale()
  }

  /// Moves `key` to `deadline` if that is earlier than its own, or schedules it if it was not
  /// waiting. Returns true when it is now the earliest key (a sleeping thread must wake).
  @inlinable
  @discardableResult
  public mutating func scheduleNoLaterThan(_ key: Key, at deadline: Int64) -> Bool {
    if let current = live[key]?.deadline, current <= deadline { return false }
    schedule(key, at: deadline)
    return heap.first?.key == key
  }

  /// Removes `key`; nothing happens when it is not waiting.
  @inlinable
  public mutating func remove(_ key: Key) {
    guard live.removeValue(forKey: key) != nil else { return }
    discardStaleTop()
    compactIfMostlyStale()
  }

  /// Takes the earliest key if its deadline is at or before `now`.
  @inlinable
  public mutating func popDue(now: Int64) -> Key? {
    guard let top = heap.first, top.deadline <= now else { return nil }
    live[top.key] = nil
    popTop()
    discardStaleTop()
    return top.key
  }

  @inlinable
  func isLive(_ entry: Entry) -> Bool {
    live[entry.key]?.order == entry.order
  }

  @inlinable
  mutating func discardStaleTop() {
    while let top = heap.first, !isLive(top) { popTop() }
  }

  @inlinable
  mutating func compactIfMostlyStale() {
    guard heap.count > 2 * live.count + 16 else { return }
    let entries = heap.filter(isLive)
    heap.removeAll(keepingCapacity: true)
    for entry in entries { push(entry) }
  }

  @inlinable
  mutating func push(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  @inlinable
  mutating func popTop() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count, heap[left].precedes(heap[first]) { first = left }
      if right < heap.count, heap[right].precedes(heap[first]) { first = right }
      guard first != parent else { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
