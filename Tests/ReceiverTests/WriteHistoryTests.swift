import Receiver
import Testing

struct WriteHistoryTests {
  @Test func theTotalAtAMomentCountsTheWritesUpToIt() {
    var history = WriteHistory()
    #expect(history.total(atOrBefore: 100) == 0)
    history.record(bytes: 500, at: 1_000)
    history.record(bytes: 60, at: 41_000)
    history.record(bytes: 7, at: 41_000)
    #expect(history.total == 567)
    #expect(history.total(atOrBefore: 999) == 0)
    #expect(history.total(atOrBefore: 1_000) == 500)
    #expect(history.total(atOrBefore: 40_999) == 500)
    #expect(history.total(atOrBefore: 41_000) == 567)
    #expect(history.total(atOrBefore: .max) == 567)
  }

  @Test func beyondTheWritesKeptTheTotalIsUnknown() {
    var history = WriteHistory()
    for index in 0..<(WriteHistory.capacity + 1) {
      history.record(bytes: 10, at: Int64(index) * 1_000)
    }
    #expect(history.total == 10 * (WriteHistory.capacity + 1))
    // The first write was forgotten: before the oldest kept one nothing can be said.
    #expect(history.total(atOrBefore: 500) == nil)
    #expect(history.total(atOrBefore: 1_000) == 20)
    #expect(history.total(atOrBefore: Int64(WriteHistory.capacity) * 1_000) == history.total)
  }
}
