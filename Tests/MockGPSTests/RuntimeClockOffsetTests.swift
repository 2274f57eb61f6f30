import DeviceRuntime
import Simulation
import TestFixtures
import Testing

/// The runtime converts a UTC instant to its loops' monotonic time with one offset between the
/// clocks for every device: devices due at one instant get one deadline (and the scheduler runs
/// them in the order they were added), while a step of the clock is still followed at once.
@Suite struct RuntimeClockOffsetTests {
  private let second: Int64 = 1_000_000_000

  @Test func readingsAMomentApartGiveOneDeadlineAndAStepOfTheClockIsFollowed() throws {
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600 * second))
    let runtime = try EmulatorRuntime(clock: clock)
    defer { runtime.stop() }
    let monotonic = runtime.monotonicNanoseconds()
    let utc = clock.now().nanoseconds
    let due = utc + second / 10
    let first = runtime.monotonicNanoseconds(atUTC: due, utcNow: utc, monotonicNow: monotonic)
    #expect((0..<second).contains(first - (monotonic + second / 10)), "\(first - monotonic)")
    // Another device's readings, 7 µs apart (a step's two reads with work between them): the
    // same deadline, not one 7 µs off.
    let other = runtime.monotonicNanoseconds(
      atUTC: due, utcNow: utc + 7_000, monotonicNow: monotonic)
    #expect(other == first)
    // The clock steps a second ahead: the readings stray from the offset, which is taken again;
    // the instant a second later on the clock is when the first one was.
    clock.set(UTCInstant(nanosecondsSinceEpoch: utc + second))
    let stepped = runtime.monotonicNanoseconds(
      atUTC: due + second, utcNow: utc + second, monotonicNow: runtime.monotonicNanoseconds())
    #expect(abs(stepped - first) < second / 10, "\(stepped - first)")
  }

  /// On a test's manual clock the loops' time is the clock's: the conversion is the identity.
  @Test func aManualRuntimeConvertsToTheSameNanoseconds() throws {
    let clock = ManualClock(UTCInstant(nanosecondsSinceEpoch: 1_767_225_600 * second))
    let runtime = try EmulatorRuntime(manualClock: clock)
    defer { runtime.stop() }
    let now = clock.now().nanoseconds
    #expect(runtime.monotonicNanoseconds(atUTC: now + 5, utcNow: now, monotonicNow: now) == now + 5)
  }
}
