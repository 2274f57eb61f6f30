import Servers
import Testing

/// The process's route loads at once: a control client of the group that keeps loading large
/// files holds at most one slot, and the owner (root's `ctl`, the panel) keeps the other.
@Suite struct RouteLoadSlotsTests {
  @Test func otherUsersTakeOneSlotAndTheOwnerKeepsTheOther() {
    var count = RouteLoadSlots.Count()
    var taken: [Bool] = []
    taken.append(count.take(forOwner: false))
    taken.append(count.take(forOwner: false))  // a second load for the group's clients
    taken.append(count.take(forOwner: true))
    taken.append(count.take(forOwner: true))  // every slot is taken
    #expect(taken == [true, false, true, false])
    count.give(forOwner: false)
    let again = count.take(forOwner: false)
    #expect(again)
    count.give(forOwner: true)
    count.give(forOwner: false)
    // The owner may take both.
    let owner = [count.take(forOwner: true), count.take(forOwner: true)]
    let other = count.take(forOwner: false)
    #expect(owner == [true, true] && !other)
    #expect(count.taken == RouteLoadSlots.maximum && count.takenForOthers == 0)
  }
}
