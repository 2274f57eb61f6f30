import Receiver
import Simulation
import TestFixtures
import Testing

/// The soak's accounting, pinned on a manual clock: whatever the stalls between the loop's
/// wake-ups, every epoch of the grid whose time has come is either sent once or counted
/// skipped once, and `epochsDue` is exactly how many there were.
@Suite struct EpochAccountingTests {
  static let start = UTCInstant(year: 2026, month: 12, day: 1, hour: 10)
  static let second: Int64 = 1_000_000_000

  /// What the loop does, at a time scale: maps the wire time to simulated time (not before the
  /// start) and steps, for a sequence of wake-ups; returns the epochs sent and skipped.
  struct Run {
    var scheduler: EpochScheduler
    let time: SimulatedTime
    var sent: [UTCInstant] = []
    var skipped = 0

    init(rateHz: Double, timeScale: Double) throws {
      scheduler = EpochScheduler(cadence: try CadencePlan(rateHz: rateHz), timeScale: timeScale)
      time = SimulatedTime(start: nil, scale: timeScale, wireNow: EpochAccountingTests.start)
    }

    /// Steps at `wire` until the scheduler waits, as one step of the loop does.
    mutating func wake(atWire wire: UTCInstant) {
      let now = max(time.simulated(atWire: wire), time.simulatedOrigin.adding(nanoseconds: -1))
      while true {
        let step = scheduler.step(now: now)
        skipped += step.skippedEpochs
        guard case .send(let epoch) = step.action else { return }
        sent.append(epoch)
      }
    }

    /// Grid instants from the first epoch (the start) up to the one waited for, not included.
    var gridEpochsBeforeNext: Int {
      guard let next = scheduler.nextEpoch else { return 0 }
      return Int(
        next.nanoseconds(since: time.simulatedOrigin) / scheduler.cadence.periodNanoseconds)
    }
  }

  /// Stalls of up to 200 wire periods (a loaded machine, a SIGSTOP), wake-ups exactly on the
  /// grid, just inside and just past the late tolerance, at the soak's scale and without one.
  @Test(arguments: [(1.0, 60.0), (10, 1), (1, 1), (5, 20)])
  func everyEpochDueIsSentOrSkippedExactlyOnce(rateHz: Double, timeScale: Double) throws {
    var run = try Run(rateHz: rateHz, timeScale: timeScale)
    let wirePeriod = run.scheduler.wirePeriodNanoseconds
    let tolerance = run.scheduler.lateToleranceNanoseconds
    var random = SplitMix64(seed: 11)
    var wire = Self.start.adding(nanoseconds: -Self.second / 3)
    for _ in 0..<5_000 {
      run.wake(atWire: wire)
      let pause: Int64
      switch random.next() % 6 {
      case 0: pause = wirePeriod * Int64(1 + random.next() % 200)
      case 1: pause = tolerance + 1
      case 2: pause = tolerance
      case 3: pause = wirePeriod
      default: pause = Int64(random.next() % UInt64(wirePeriod)) + 1
      }
      wire = wire.adding(nanoseconds: pause)
    }
    run.wake(atWire: wire)
    #expect(run.skipped > 0)
    #expect(Set(run.sent).count == run.sent.count)
    #expect(run.sent == run.sent.sorted())
    #expect(run.sent.count + run.skipped == run.scheduler.epochsDue)
    #expect(run.scheduler.epochsDue == run.gridEpochsBeforeNext)
  }

  /// The soak's case: a scaled run starts at the next whole wire second, and counts nothing
  /// before it; from then on the epochs due are the grid's, 60 a wire second.
  @Test func aScaledRunCountsFromItsStartAtTheNextWholeSecond() throws {
    var run = try Run(rateHz: 1, timeScale: 60)
    run.wake(atWire: Self.start.adding(nanoseconds: -400_000_000))
    #expect(run.scheduler.epochsDue == 0)
    // 20 wire seconds after the start, with a wake-up every 7 ms: 1,200 epochs and the one at
    // 20 s itself.
    var wire = Self.start.adding(nanoseconds: -400_000_000)
    while wire <= Self.start.adding(nanoseconds: 20 * Self.second) {
      run.wake(atWire: wire)
      wire = wire.adding(nanoseconds: 7_000_000)
    }
    run.wake(atWire: Self.start.adding(nanoseconds: 20 * Self.second))
    #expect(run.scheduler.epochsDue == 1_201)
    #expect(run.sent.count + run.skipped == 1_201)
  }
}
