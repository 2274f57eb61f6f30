import Receiver
import Simulation
import Testing

@Suite struct ScenarioShiftTests {
  @Test func aShiftedScenarioKeepsEveryEventsOffsetFromItsStart() {
    let scenario = ScenarioRun.scenario([
      (at: 0, action: .hold, duration: nil), (at: 12.5, action: .silence, duration: 3),
    ])
    let now = UTCInstant(year: 2026, month: 11, day: 30, hour: 17, minute: 20, second: 1)
    let shifted = scenario.shifted(toStartAt: now)
    #expect(shifted.startTime == now)
    #expect(shifted.timeline.map(\.at) == [now, now.adding(nanoseconds: 12_500_000_000)])
    #expect(shifted.timeline.map(\.durationNanoseconds) == [nil, 3_000_000_000])
    // The same epochs, a fixed offset later.
    let offset = now.nanoseconds - scenario.startTime.nanoseconds
    for seconds in [0.0, 12, 13, 16] {
      let before = ScenarioRun.bytes(ScenarioRun.source(scenario), at: seconds)
      let after = SceneSource(shifted.compiled())
        .epoch(at: ScenarioRun.time(seconds).adding(nanoseconds: offset)).bytes
      #expect(before.isEmpty == after.isEmpty, "at \(seconds) s")
    }
  }
}
