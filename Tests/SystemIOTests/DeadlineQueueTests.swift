import SystemIO
import Testing

@Suite struct DeadlineQueueTests {
  /// Takes every key due at `now`, in order.
  private func drain(_ queue: inout DeadlineQueue<String>, now: Int64) -> [String] {
    var keys: [String] = []
    while let key = queue.popDue(now: now) { keys.append(key) }
    return keys
  }

  @Test func keysComeOutEarliestFirstAndTiesInTheOrderScheduled() {
    var queue = DeadlineQueue<String>()
    queue.schedule("c", at: 30)
    queue.schedule("a", at: 10)
    queue.schedule("tie-1", at: 20)
    queue.schedule("tie-2", at: 20)
    queue.schedule("b", at: 15)
    #expect(queue.earliestDeadline == 10)
    #expect(drain(&queue, now: 100) == ["a", "b", "tie-1", "tie-2", "c"])
    #expect(queue.isEmpty && queue.earliestDeadline == nil)
  }

  @Test func onlyKeysDueByNowComeOut() {
    var queue = DeadlineQueue<String>()
    queue.schedule("early", at: 10)
    queue.schedule("late", at: 20)
    #expect(drain(&queue, now: 19) == ["early"])
    #expect(queue.earliestDeadline == 20)
    #expect(drain(&queue, now: 20) == ["late"])
  }

  @Test func manyKeysInRandomOrderComeOutSorted() {
    var queue = DeadlineQueue<Int>()
    var random = SystemRandomNumberGenerator()
    var deadlines: [Int: Int64] = [:]
    for key in 0..<500 {
      let deadline = Int64.random(in: 0..<1_000, using: &random)
      deadlines[key] = deadline
      queue.schedule(key, at: deadline)
    }
    var previous = Int64.min
    var seen = 0
    while let key = queue.popDue(now: .max) {
      let deadline = deadlines[key] ?? -1
      #expect(deadline >= previous)
      previous = deadline
      seen += 1
    }
    #expect(seen == 500)
  }

  @Test func schedulingAgainMovesAKeyEarlierOrLater() {
    var queue = DeadlineQueue<String>()
    queue.schedule("a", at: 10)
    queue.schedule("b", at: 20)
    queue.schedule("a", at: 30)
    #expect(queue.count == 2 && queue.deadline(of: "a") == 30)
    #expect(drain(&queue, now: 25) == ["b"])
    queue.schedule("a", at: 5)
    #expect(queue.earliestDeadline == 5)
    #expect(drain(&queue, now: 100) == ["a"])
  }

  @Test func noLaterThanOnlyMovesEarlierAndSaysWhenTheKeyIsNowFirst() {
    var queue = DeadlineQueue<String>()
    queue.schedule("a", at: 10)
    queue.schedule("b", at: 20)
    let later = queue.scheduleNoLaterThan("b", at: 25)
    #expect(!later && queue.deadline(of: "b") == 20)
    let earlierNotFirst = queue.scheduleNoLaterThan("b", at: 15)
    #expect(!earlierNotFirst && queue.deadline(of: "b") == 15)
    let earlierFirst = queue.scheduleNoLaterThan("b", at: 5)
    let added = queue.scheduleNoLaterThan("c", at: 1)
    #expect(earlierFirst && added)
    #expect(drain(&queue, now: 100) == ["c", "b", "a"])
  }

  @Test func aRemovedKeyNeverComesOut() {
    var queue = DeadlineQueue<String>()
    queue.schedule("a", at: 10)
    queue.schedule("b", at: 20)
    queue.remove("a")
    queue.remove("missing")
    #expect(queue.count == 1 && queue.earliestDeadline == 20)
    #expect(drain(&queue, now: 100) == ["b"])
  }

  @Test func movingOneKeyOftenKeepsTheQueueSmallAndRight() {
    var queue = DeadlineQueue<Int>()
    queue.schedule(1, at: 1_000_000)
    for step in 0..<10_000 { queue.schedule(0, at: Int64(10_000 - step)) }
    #expect(queue.count == 2)
    #expect(queue.popDue(now: .max) == 0)
    #expect(queue.popDue(now: .max) == 1)
    #expect(queue.popDue(now: .max) == nil)
  }
}
