import DeviceRuntime
import Simulation
import Synchronization
import SystemIO
import TestFixtures
import Testing

/// The runtime converts a UTC instant to its loops' monotonic time with one offset between the
/// clocks for every device: devices due at one instant get one deadline (and the scheduler runs
/// them in the order they were added), while a step of the clock is still followed at once.
@Suite struct RuntimeClockOffsetTests {
  private let second: Int64 = 1_000_000_000

  /// The clock is the system's (a frozen manual clock beside the real monotonic one would have
  /// its offset drift by the time the test takes, and be read again).
  @Test func readingsAMomentApartGiveOneDeadlineAndAStepOfTheClockIsFollowed() throws {
    let clock = SteppedClock()
    let runtime = try EmulatorRuntime(clock: clock)
    defer { runtime.stop() }
    let monotonic = runtime.monotonicNanoseconds()
    let utc = clock.now().nanoseconds
    let due = utc + second / 10
    let first = runtime.monotonicNanoseconds(atUTC: due, utcNow: utc, monotonicNow: monotonic)
    // The runtime's offset is its own tight reading: UTC read between two monotonic readings
    // at most 10 µs apart, taken at their middle, so within 5 µs of this test's pair (a loaded
    // clean clone's run put the deadline 155 ns before it).
    #expect(
      (-5_000..<second).contains(first - (monotonic + second / 10)), "\(first - monotonic)")
    // Another device's readings, 6 µs further apart (a step's two reads with work between
    // them): the same deadline, not one 6 µs off.
    let other = runtime.monotonicNanoseconds(
      atUTC: due, utcNow: utc + 6_000, monotonicNow: monotonic)
    #expect(other == first)
    // The clock steps a second ahead: the readings stray from the offset, which is taken again;
    // the instant a second later on the clock is when the first one was.
    clock.shift.add(second, ordering: .relaxed)
    let monotonicAfter = runtime.monotonicNanoseconds()
    let stepped = runtime.monotonicNanoseconds(
      atUTC: due + second, utcNow: clock.now().nanoseconds, monotonicNow: monotonicAfter)
    #expect(abs(stepped - first) < second / 100, "\(stepped - first)")
  }

  /// The system's UTC clock, stepped by `shift`; each reading takes `readingNanoseconds` (a slow
  /// clock source).
  private final class SteppedClock: UTCClock {
    let shift = Atomic<Int64>(0)
    let readingNanoseconds: Int64

    init(readingNanoseconds: Int64 = 0) {
      self.readingNanoseconds = readingNanoseconds
    }

    func now() -> UTCInstant {
      let end = SystemClock.monotonicNanoseconds() + readingNanoseconds
      while SystemClock.monotonicNanoseconds() < end {}
      return UTCInstant(
        nanosecondsSinceEpoch: SystemClock.nanosecondsSinceEpoch() + shift.load(ordering: .relaxed))
    }
  }

  /// How long after now, on the loops' monotonic clock, `runtime` puts the instant `ahead`
  /// nanoseconds after the clock's now, converted from a loop's two readings.
  private static func deadline(on runtime: EmulatorRuntime, of clock: SteppedClock, ahead: Int64)
    -> Int64
  {
    let monotonic = runtime.monotonicNanoseconds()
    let utc = clock.now().nanoseconds
    return runtime.monotonicNanoseconds(
      atUTC: utc + ahead, utcNow: utc, monotonicNow: monotonic) - monotonic
  }

  /// A clock too slow to read tightly is still followed at once when it is stepped: the
  /// loops' own readings are taken. (Review: the offset read before a step of a second was
  /// kept for good, and every deadline came a second late.)
  @Test func aStepOfAClockTooSlowToReadTightlyIsFollowed() throws {
    let clock = SteppedClock(readingNanoseconds: 15_000)
    let runtime = try EmulatorRuntime(clock: clock)
    defer { runtime.stop() }
    func convert(ahead: Int64) -> Int64 { Self.deadline(on: runtime, of: clock, ahead: ahead) }
    let ahead = second / 10
    #expect(abs(convert(ahead: ahead) - ahead) < second / 100)
    clock.shift.add(second, ordering: .relaxed)
    for _ in 0..<3 {
      let converted = convert(ahead: ahead)
      #expect(abs(converted - ahead) < second / 100, "\(converted) ns for \(ahead) ns ahead")
    }
  }

  /// An instant ahead on the clock is never converted to a deadline that has passed, whatever
  /// the steps of the clock, also those too small to have the offset read again. (Review: a
  /// step back of 45 µs, under the tolerance then of 50 µs, converted an instant 20 µs ahead to
  /// 25 µs in the past, and its loop was woken with nothing due until the clock caught up.)
  @Test func anInstantAheadIsNeverADeadlinePassedWhateverTheStepsOfTheClock() throws {
    let clock = SteppedClock()
    let runtime = try EmulatorRuntime(clock: clock)
    defer { runtime.stop() }
    func convert(ahead: Int64) -> Int64 { Self.deadline(on: runtime, of: clock, ahead: ahead) }
    #expect(convert(ahead: 2_000) > 0)
    for step: Int64 in [-3_000, -8_000, -45_000, 6_000, -9_000] {
      clock.shift.add(step, ordering: .relaxed)
      #expect(convert(ahead: 2_000) > 0, "after a step of \(step) ns")
    }
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
