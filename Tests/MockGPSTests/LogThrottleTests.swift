import DeviceRuntime
import Testing

@testable import MockGPS

/// One log line a second at most for a flood of one kind, saying how many were left out.
@Suite struct LogThrottleTests {
  @Test func theFirstEventIsLoggedAtOnceAndTheNextOnesOnceAnIntervalHasPassed() {
    var throttle = LogThrottle(intervalNanoseconds: 1_000)
    #expect(throttle.admit(now: 0) == 0)
    #expect(throttle.admit(now: 1) == nil)
    #expect(throttle.admit(now: 999) == nil)
    #expect(throttle.admit(now: 1_000) == 2, "the two left out")
    #expect(throttle.admit(now: 5_000) == 0)
  }
}
