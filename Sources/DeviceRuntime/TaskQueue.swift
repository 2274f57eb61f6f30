/// A task's place in a `TaskQueue`, to wake or remove it: a slot and the slot's generation, so
/// that the handle of a removed task never reaches the task added in its slot later.
package struct TaskHandle: Hashable, Sendable {
  fileprivate let slot: Int
  fileprivate let generation: UInt64
}

/// The tasks of a `DeadlineScheduler` and their deadlines: a binary min-heap of slots, each slot
/// knowing its place in the heap, so that finding, moving and removing a task hash nothing. (A
/// dictionary of task IDs beside a heap of keys hashed an ID about 38 times a device-epoch: 5 %
/// of a 1,000-device fleet's instructions.)
///
/// Tasks due at the same instant come out in the order they were added, every time; a task
/// scheduled `afterTies` (a wake for now, a step asking to run again at once) comes after the
/// others due then, those among themselves in the order scheduled.
///
/// Pure; the scheduler keeps it under its lock.
package struct TaskQueue<Task> {
  package typealias Handle = TaskHandle

  /// What a slot keeps of its task: plain values, so that copying one retains nothing.
  private struct Slot {
    var generation: UInt64 = 0
    /// The order the task was added in: its turn among the tasks due at one instant.
    var rank: UInt64 = 0
    /// Its place in `heap`, or -1 when it is not waiting.
    var heapIndex = -1
  }

  /// A waiting task in the heap with its place in the order, so that sifting compares entries
  /// side by side instead of looking each slot up (the heap's work was 7 % of a fleet's
  /// instructions under callgrind when it did).
  private struct Entry {
    var deadline: Int64
    /// Its turn among the tasks due at `deadline`: its rank, or, scheduled after ties,
    /// `afterTiesBit` plus the order it was scheduled in.
    var turn: UInt64
    var slot: Int

    /// Whether it comes out before `other`: the earlier deadline, then the earlier turn.
    func precedes(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : turn < other.turn
    }
  }

  /// Set in the turn of a task scheduled after ties: after every rank (ranks and orders stay
  /// below 2⁶³, a task added or scheduled every nanosecond for 292 years).
  private static var afterTiesBit: UInt64 { 1 << 63 }

  private var slots: [Slot] = []
  /// The task of each slot, nil while the slot is free.
  private var tasks: [Task?] = []
  private var freeSlots: [Int] = []
  /// The waiting tasks, earliest first at the top.
  private var heap: [Entry] = []
  private var nextRank: UInt64 = 0
  private var nextOrder: UInt64 = 0

  /// How many tasks there are, waiting or not.
  package private(set) var count = 0

  /// Creates an empty queue.
  package init() {}

  /// The earliest deadline of the waiting tasks, or nil when none waits.
  package var earliestDeadline: Int64? { heap.first?.deadline }

  /// Adds `task`, not waiting until it is scheduled.
  package mutating func add(_ task: Task) -> Handle {
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
    } else {
      slot = slots.count
      slots.append(Slot())
      tasks.append(nil)
    }
    tasks[slot] = task
    slots[slot].generation &+= 1
    slots[slot].rank = nextRank
    nextRank &+= 1
    count += 1
    return Handle(slot: slot, generation: slots[slot].generation)
  }

  /// The task of `handle`, or nil once it was removed.
  package func task(_ handle: Handle) -> Task? {
    guard isCurrent(handle) else { return nil }
    return tasks[handle.slot]
  }

  /// Removes the task of `handle`, waiting or not, and returns it; nil when it was removed.
  @discardableResult
  package mutating func remove(_ handle: Handle) -> Task? {
    guard isCurrent(handle), let task = tasks[handle.slot] else { return nil }
    takeOutOfHeap(handle.slot)
    tasks[handle.slot] = nil
    freeSlots.append(handle.slot)
    count -= 1
    return task
  }

  /// Moves the task of `handle` to `deadline` if that is earlier than when it waits for, or
  /// schedules it if it was not waiting; `afterTies` puts it after the others due at that
  /// instant. Returns true when it is now the earliest (a sleeping thread must wake); false,
  /// changing nothing, for a removed task.
  @discardableResult
  package mutating func scheduleNoLaterThan(
    _ handle: Handle, at deadline: Int64, afterTies: Bool = false
  ) -> Bool {
    guard isCurrent(handle), tasks[handle.slot] != nil else { return false }
    let slot = handle.slot
    let index = slots[slot].heapIndex
    if index >= 0, heap[index].deadline <= deadline { return false }
    let turn = afterTies ? Self.afterTiesBit | nextOrder : slots[slot].rank
    nextOrder &+= 1
    let entry = Entry(deadline: deadline, turn: turn, slot: slot)
    if index < 0 {
      heap.append(entry)
      slots[slot].heapIndex = heap.count - 1
    } else {
      heap[index] = entry
    }
    siftUp(slots[slot].heapIndex)
    return heap[0].slot == slot
  }

  /// Takes the earliest waiting task if it is due by `now`: it stays in the queue, waiting for
  /// nothing until scheduled again.
  package mutating func popDue(now: Int64) -> (Handle, Task)? {
    guard let top = heap.first?.slot, heap[0].deadline <= now, let task = tasks[top] else {
      return nil
    }
    takeOutOfHeap(top)
    return (Handle(slot: top, generation: slots[top].generation), task)
  }

  private func isCurrent(_ handle: Handle) -> Bool {
    handle.slot < slots.count && slots[handle.slot].generation == handle.generation
  }

  private mutating func takeOutOfHeap(_ slot: Int) {
    let index = slots[slot].heapIndex
    guard index >= 0 else { return }
    slots[slot].heapIndex = -1
    let last = heap.removeLast()
    guard index < heap.count else { return }
    heap[index] = last
    slots[last.slot].heapIndex = index
    siftDown(index)
    siftUp(slots[last.slot].heapIndex)
  }

  /// Moves the entry at `start` up to its place; on the arrays' storage, checked once.
  private mutating func siftUp(_ start: Int) {
    heap.withUnsafeMutableBufferPointer { heap in
      slots.withUnsafeMutableBufferPointer { slots in
        let moving = heap[start]
        var child = start
        while child > 0 {
          let parent = (child - 1) / 2
          guard moving.precedes(heap[parent]) else { break }
          heap[child] = heap[parent]
          slots[heap[child].slot].heapIndex = child
          child = parent
        }
        heap[child] = moving
        slots[moving.slot].heapIndex = child
      }
    }
  }

  /// Moves the entry at `start` down to its place, as `siftUp`.
  private mutating func siftDown(_ start: Int) {
    heap.withUnsafeMutableBufferPointer { heap in
      slots.withUnsafeMutableBufferPointer { slots in
        let moving = heap[start]
        var parent = start
        while true {
          let left = 2 * parent + 1
          guard left < heap.count else { break }
          let right = left + 1
          let first = right < heap.count && heap[right].precedes(heap[left]) ? right : left
          guard heap[first].precedes(moving) else { break }
          heap[parent] = heap[first]
          slots[heap[parent].slot].heapIndex = parent
          parent = first
        }
        heap[parent] = moving
        slots[moving.slot].heapIndex = parent
      }
    }
  }
}
