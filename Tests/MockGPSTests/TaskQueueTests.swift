import DeviceRuntime
import Testing

/// The deadline scheduler's queue of tasks: earliest first, tasks due together in the order
/// they were added, those scheduled after ties behind them in the order scheduled.
@Suite struct TaskQueueTests {
  private func drain(_ queue: inout TaskQueue<String>, now: Int64) -> [String] {
    var names: [String] = []
    while let (_, name) = queue.popDue(now: now) { names.append(name) }
    return names
  }

  @Test func tasksDueTogetherComeOutInTheOrderAddedWhenEverScheduled() {
    var queue = TaskQueue<String>()
    let handles = Dictionary(
      uniqueKeysWithValues: ["a", "b", "c", "d", "e", "woken", "late", "early"].map {
        ($0, queue.add($0))
      })
    func schedule(_ name: String, at deadline: Int64, afterTies: Bool = false) {
      queue.scheduleNoLaterThan(handles[name]!, at: deadline, afterTies: afterTies)
    }
    for name in ["d", "b", "e", "a"] { schedule(name, at: 20) }
    schedule("late", at: 30)
    schedule("c", at: 50)
    schedule("c", at: 20)
    schedule("woken", at: 20, afterTies: true)
    schedule("early", at: 10)
    #expect(queue.earliestDeadline == 10)
    #expect(drain(&queue, now: 19) == ["early"])
    #expect(drain(&queue, now: 100) == ["a", "b", "c", "d", "e", "woken", "late"])
    #expect(queue.earliestDeadline == nil && queue.count == 8)
  }

  @Test func tasksAfterTiesComeOutInTheOrderScheduled() {
    var queue = TaskQueue<String>()
    let first = queue.add("first")
    let second = queue.add("second")
    let keyed = queue.add("keyed")
    queue.scheduleNoLaterThan(second, at: 5, afterTies: true)
    queue.scheduleNoLaterThan(first, at: 5, afterTies: true)
    queue.scheduleNoLaterThan(keyed, at: 5)
    #expect(drain(&queue, now: 5) == ["keyed", "second", "first"])
  }

  @Test func onlyAnEarlierDeadlineMovesAWaitingTaskAndTheEarliestIsSaid() {
    var queue = TaskQueue<String>()
    let a = queue.add("a")
    let b = queue.add("b")
    let aFirst = queue.scheduleNoLaterThan(a, at: 10)
    let bSecond = queue.scheduleNoLaterThan(b, at: 20)
    let bLater = queue.scheduleNoLaterThan(b, at: 30)
    let bEarlier = queue.scheduleNoLaterThan(b, at: 5)
    #expect(aFirst && !bSecond)
    #expect(!bLater, "later: no move")
    #expect(bEarlier, "earlier: moved, and now the earliest")
    #expect(drain(&queue, now: 100) == ["b", "a"])
  }

  /// A removed task's handle reaches nothing, also once its slot holds a task added later.
  @Test func aRemovedTasksHandleNeverReachesTheTaskInItsSlot() {
    var queue = TaskQueue<String>()
    let old = queue.add("old")
    queue.scheduleNoLaterThan(old, at: 10)
    let removed = queue.remove(old)
    #expect(removed == "old")
    #expect(queue.earliestDeadline == nil && queue.count == 0)
    let new = queue.add("new")
    let removedAgain = queue.remove(old)
    let scheduled = queue.scheduleNoLaterThan(old, at: 1)
    #expect(queue.task(old) == nil && removedAgain == nil)
    #expect(!scheduled)
    #expect(queue.task(new) == "new" && queue.earliestDeadline == nil)
  }

  /// Many tasks moved and removed at random come out as a sorted model says.
  @Test func randomMovesAndRemovalsComeOutAsTheModelSays() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      var queue = TaskQueue<Int>()
      var handles: [Int: TaskHandle] = [:]
      // The model: each waiting task's (deadline, afterTies, rank or order).
      var waiting: [Int: (deadline: Int64, afterTies: Bool, order: Int)] = [:]
      var order = 0
      for name in 0..<40 { handles[name] = queue.add(name) }
      for _ in 0..<120 {
        let name = Int.random(in: 0..<40, using: &random)
        guard let handle = handles[name] else { continue }
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
          queue.remove(handle)
          handles[name] = nil
          waiting[name] = nil
        default:
          let deadline = Int64.random(in: 0..<8, using: &random)
          let afterTies = Bool.random(using: &random)
          queue.scheduleNoLaterThan(handle, at: deadline, afterTies: afterTies)
          if let current = waiting[name], current.deadline <= deadline { continue }
          order += 1
          waiting[name] = (deadline, afterTies, order)
        }
      }
      let expected = waiting.sorted { x, y in
        let (a, b) = (x.value, y.value)
        if a.deadline != b.deadline { return a.deadline < b.deadline }
        if a.afterTies != b.afterTies { return b.afterTies }
        return a.afterTies ? a.order < b.order : x.key < y.key
      }.map(\.key)
      var names: [Int] = []
      while let (_, name) = queue.popDue(now: .max) { names.append(name) }
      #expect(names == expected)
      #expect(queue.count == handles.count)
    }
  }
}
