import Testing

@testable import Panel

/// The gate that keeps slowloris connections from holding the panel's slots.
@Suite struct PanelConnectionGateTests {
  static let second: Int64 = 1_000_000_000

  @Test func aConnectionOverTheLimitCutsTheOneWaitingLongest() {
    var gate = PanelConnectionGate(maximumWaiting: 3, headerDeadlineNanoseconds: 10 * Self.second)
    for id in UInt(1)...3 { #expect(gate.opened(id, now: Int64(id)).isEmpty) }
    #expect(gate.opened(4, now: 4) == [1])
    #expect(gate.opened(5, now: 5) == [2])
    #expect(gate.waitingCount == 3)
  }

  @Test func aConnectionWhoseRequestWasReadIsNeitherCutNorCounted() {
    var gate = PanelConnectionGate(maximumWaiting: 2, headerDeadlineNanoseconds: 10 * Self.second)
    _ = gate.opened(1, now: 0)
    gate.requestRead(1)
    _ = gate.opened(2, now: 1)
    _ = gate.opened(3, now: 2)
    #expect(gate.waitingCount == 2)
    #expect(gate.opened(4, now: 3) == [2])
    #expect(gate.expired(now: 100 * Self.second) == [3, 4])
    #expect(gate.waitingCount == 0)
  }

  @Test func theDeadlineCountsFromTheOpeningWhateverArrivesSince() {
    var gate = PanelConnectionGate(maximumWaiting: 8, headerDeadlineNanoseconds: 10 * Self.second)
    _ = gate.opened(1, now: 0)
    _ = gate.opened(2, now: 4 * Self.second)
    #expect(gate.expired(now: 10 * Self.second - 1).isEmpty)
    #expect(gate.expired(now: 10 * Self.second) == [1])
    gate.closed(2)
    #expect(gate.expired(now: 60 * Self.second).isEmpty)
  }
}
