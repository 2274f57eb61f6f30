import Geodesy
import Receiver
import Simulation
import TestFixtures
import Testing

/// What the epoch loop does under `--time-scale`, on a manual wire clock: the scheduler plans in
/// simulated time and the loop sleeps until the wire instant each deadline maps to.
@Suite struct TimeScaleTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 30, hour: 12)
  static let second = UTCInstant.nanosecondsPerSecond

  /// One epoch as the loop would send it.
  struct SentEpoch: Equatable {
    var wire: UTCInstant
    var simulated: UTCInstant
  }

  /// Runs the loop's decisions for `wireSeconds` from `wireStart` with a wire clock that wakes
  /// exactly on time, and returns the epochs sent.
  static func run(
    rateHz: Double, timeScale: Double, start: UTCInstant? = nil,
    wireStart: UTCInstant = noon.adding(nanoseconds: 300_000_000), wireSeconds: Double
  ) throws -> [SentEpoch] {
    let clock = ManualClock(wireStart)
    let time = SimulatedTime(start: start, scale: timeScale, wireNow: clock.now())
    var scheduler = EpochScheduler(cadence: try CadencePlan(rateHz: rateHz), timeScale: timeScale)
    let end = wireStart.adding(nanoseconds: Int64(wireSeconds * 1e9))
    var sent: [SentEpoch] = []
    while clock.now() <= end {
      switch scheduler.step(now: time.simulated(atWire: clock.now())).action {
      case .wait(let deadline): clock.set(time.wire(atSimulated: deadline))
      case .send(let epoch): sent.append(SentEpoch(wire: clock.now(), simulated: epoch))
      }
    }
    return sent
  }

  @Test func atTenTimesOneHertzTheWireSeesTenEpochsASecondOneSimulatedSecondApart() throws {
    let sent = try Self.run(rateHz: 1, timeScale: 10, wireSeconds: 2)
    #expect(sent.count == 20)
    for (a, b) in zip(sent, sent.dropFirst()) {
      #expect(b.wire.nanoseconds - a.wire.nanoseconds == 100_000_000)
      #expect(b.simulated.nanoseconds - a.simulated.nanoseconds == Self.second)
    }
    #expect(sent.allSatisfy { $0.simulated.nanoseconds % Self.second == 0 })
    #expect(sent.allSatisfy { $0.wire.nanoseconds % 100_000_000 == 0 })
  }

  @Test func atHalfSpeedTwoHertzLeavesOnceAWireSecondHalfASimulatedSecondApart() throws {
    let sent = try Self.run(rateHz: 2, timeScale: 0.5, wireSeconds: 4)
    #expect(sent.count == 4)
    for (a, b) in zip(sent, sent.dropFirst()) {
      #expect(b.wire.nanoseconds - a.wire.nanoseconds == Self.second)
      #expect(b.simulated.nanoseconds - a.simulated.nanoseconds == Self.second / 2)
    }
  }

  /// A scale that does not divide a second: the wire instants are rounded, the simulated ones
  /// stay exactly on whole seconds, from a start time of the user's.
  @Test(arguments: [3.0, 7.0, 0.3, 2.5, 999.0])
  func simulatedEpochsStayOnWholeSecondsAtAnyScale(scale: Double) throws {
    let start = UTCInstant(year: 2024, month: 6, day: 1, hour: 23, minute: 59, second: 50)
    let sent = try Self.run(
      rateHz: 1, timeScale: scale, start: start, wireSeconds: max(3, 12 / scale))
    #expect(sent.count >= 3)
    for (a, b) in zip(sent, sent.dropFirst()) {
      #expect(b.simulated.nanoseconds - a.simulated.nanoseconds == Self.second)
      let wirePeriod = Double(b.wire.nanoseconds - a.wire.nanoseconds)
      #expect(abs(wirePeriod - 1e9 / scale) <= 1)
    }
    #expect(sent.allSatisfy { $0.simulated.nanoseconds % Self.second == 0 })
  }

  @Test func theToleranceIsHalfTheWirePeriodAtMost250Milliseconds() throws {
    let oneHertz = CadencePlan.oneHertz
    #expect(EpochScheduler(cadence: oneHertz).lateToleranceNanoseconds == 250_000_000)
    #expect(
      EpochScheduler(cadence: oneHertz, timeScale: 10).lateToleranceNanoseconds == 50_000_000)
    #expect(
      EpochScheduler(cadence: oneHertz, timeScale: 1000).lateToleranceNanoseconds == 500_000)
    let tenHertz = try CadencePlan(rateHz: 10)
    #expect(
      EpochScheduler(cadence: tenHertz, timeScale: 0.1).lateToleranceNanoseconds == 250_000_000)
  }

  /// A 2.5 s pause at ten times 1 Hz: 25 simulated epochs are missed, counted and skipped, and
  /// the next one waited for is on the simulated grid: simulated time did not slow down.
  @Test func aPauseSkipsTheScaledEpochsItMissed() throws {
    let time = SimulatedTime(start: nil, scale: 10, wireNow: Self.noon)
    var scheduler = EpochScheduler(cadence: .oneHertz, timeScale: 10)
    let clock = ManualClock(Self.noon.adding(nanoseconds: -1))
    _ = scheduler.step(now: time.simulated(atWire: clock.now()))
    clock.advance(nanoseconds: 1 + 2_500_000_000)
    let step = scheduler.step(now: time.simulated(atWire: clock.now()))
    #expect(step.skippedEpochs == 26)
    #expect(step.action == .wait(until: Self.noon.adding(nanoseconds: 26 * Self.second)))
    #expect(
      time.wire(atSimulated: Self.noon.adding(nanoseconds: 26 * Self.second))
        == Self.noon.adding(nanoseconds: 2_600_000_000))
  }

  @Test func anEpochLateByMoreThanTheScaledToleranceIsSkipped() throws {
    let time = SimulatedTime(start: nil, scale: 10, wireNow: Self.noon)
    var scheduler = EpochScheduler(cadence: .oneHertz, timeScale: 10)
    _ = scheduler.step(now: time.simulated(atWire: Self.noon.adding(nanoseconds: -1)))
    let onTime = scheduler
    // 40 ms of wire time late is within the 50 ms tolerance; 60 ms is not.
    var late = onTime
    #expect(
      late.step(now: time.simulated(atWire: Self.noon.adding(nanoseconds: 40_000_000))).action
        == .send(epoch: Self.noon))
    late = onTime
    #expect(
      late.step(now: time.simulated(atWire: Self.noon.adding(nanoseconds: 60_000_000)))
        .skippedEpochs == 1)
  }

  @Test func aClockSetBackReplansAtScale() throws {
    let time = SimulatedTime(start: nil, scale: 10, wireNow: Self.noon)
    var scheduler = EpochScheduler(cadence: .oneHertz, timeScale: 10)
    _ = scheduler.step(now: time.simulated(atWire: Self.noon.adding(nanoseconds: 1)))
    let step = scheduler.step(
      now: time.simulated(atWire: Self.noon.adding(nanoseconds: -300_000_000)))
    #expect(step.replanned)
    #expect(step.action == .wait(until: Self.noon.adding(nanoseconds: -2 * Self.second)))
  }

  @Test func theWireIsTheInverseOfTheSimulatedTime() throws {
    for scale in [0.01, 0.3, 1, 3, 7.5, 1000] {
      let time = SimulatedTime(
        start: UTCInstant(year: 2024, month: 6, day: 1, hour: 12), scale: scale,
        wireNow: Self.noon.adding(nanoseconds: 123_456_789))
      for seconds in [0, 1, 17, 3600] as [Int64] {
        let simulated = time.simulatedOrigin.adding(nanoseconds: seconds * Self.second + 7)
        let wire = time.wire(atSimulated: simulated)
        #expect(time.simulated(atWire: wire) >= simulated, "scale \(scale), \(seconds) s")
        #expect(
          time.simulated(atWire: wire.adding(nanoseconds: -1)) < simulated,
          "scale \(scale), \(seconds) s")
      }
    }
  }
}

/// The fastest the wire goes, and how a rate beyond it is refused or lowered.
@Suite struct WireRateLimitTests {
  @Test func combinationsUpToAThousandEpochsAWireSecondAreAllowed() throws {
    let twenty = try CadencePlan(rateHz: 20)
    #expect(WireRateLimit.allows(twenty, timeScale: 50))
    #expect(!WireRateLimit.allows(twenty, timeScale: 50.01))
    #expect(WireRateLimit.allows(.oneHertz, timeScale: 1000))
    #expect(!WireRateLimit.allows(try CadencePlan(rateHz: 2), timeScale: 1000))
    #expect(WireRateLimit.allows(try CadencePlan(rateHz: 0.1), timeScale: 1000))
  }

  @Test func aRefusalNamesTheRateTheScaleAndTheWireRate() throws {
    #expect {
      try WireRateLimit.check(try CadencePlan(rateHz: 2.5), timeScale: 1000)
    } throws: { error in
      (error as? WireRateLimit.TooFastError)?.description
        == "2.5 Hz at time scale 1000 needs 2500 epochs a second on the wire, more than 1000"
    }
    #expect {
      try WireRateLimit.check(try CadencePlan(rateHz: 20), timeScale: 66.6)
    } throws: { error in
      (error as? WireRateLimit.TooFastError)?.description
        == "20 Hz at time scale 66.6 needs 1332 epochs a second on the wire, more than 1000"
    }
  }

  @Test func aRateCommandBeyondTheLimitIsLoweredToTheFastestAllowed() throws {
    let two = try CadencePlan(rateHz: 2)
    let ten = try CadencePlan(rateHz: 10)
    let twenty = try CadencePlan(rateHz: 20)
    var scheduler = EpochScheduler(cadence: .oneHertz, timeScale: 300)
    #expect(scheduler.change(cadence: ten).rateMillihertz == 3333)
    #expect(scheduler.cadence.rateMillihertz == 3333)
    #expect(scheduler.change(cadence: two) == two)
    var unscaled = EpochScheduler(cadence: .oneHertz)
    #expect(unscaled.change(cadence: twenty) == twenty)
  }
}

/// Byte pacing under a time scale: the line time is compressed as simulated time is.
@Suite struct ScaledPacingTests {
  static let lines = [72, 40, 75, 68, 70, 70, 70, 52, 36]

  @Test func atTenTimesTheBytesLeaveTenTimesAsFast() throws {
    let pacing = try BytePacing(baud: 9600)
    let unscaled = pacing.chunks(forLineLengths: Self.lines, granularityNanoseconds: 400_000_000)
    let scaled = pacing.chunks(
      forLineLengths: Self.lines, granularityNanoseconds: 40_000_000, timeScale: 10)
    #expect(scaled.map(\.range) == unscaled.map(\.range))
    for (a, b) in zip(scaled, unscaled) {
      #expect(abs(a.offsetNanoseconds * 10 - b.offsetNanoseconds) < 10)
    }
    // 553 bytes take 576.04 ms at 960 bytes a second: 57.604 ms at ten times.
    let last = try #require(scaled.last?.offsetNanoseconds)
    #expect(abs(Double(last) - 553e9 / 960 / 10) < 1)
  }

  /// The share of the period an epoch fills does not depend on the scale, so neither does the
  /// budget warning.
  @Test(arguments: [0.5, 3, 10, 1000])
  func anEpochFillsTheSameShareOfItsPeriod(scale: Double) throws {
    let pacing = try BytePacing(baud: 4800)
    let cadence = try CadencePlan(rateHz: 2)
    let scheduler = EpochScheduler(cadence: cadence, timeScale: scale)
    let lastOffset = try #require(
      pacing.chunks(forLineLengths: Self.lines, timeScale: scale).last?.offsetNanoseconds)
    let share = Double(lastOffset) / Double(scheduler.wirePeriodNanoseconds)
    let budget = EpochBudget(
      bytesPerEpoch: Self.lines.reduce(0, +), pacing: pacing, cadence: cadence)
    #expect(abs(share - Double(budget.burstNanoseconds) / Double(cadence.periodNanoseconds)) < 1e-5)
  }

  @Test func unpacedStaysOneWriteAtOnce() throws {
    let chunks = try BytePacing(baud: 0).chunks(forLineLengths: Self.lines, timeScale: 10)
    #expect(chunks == [BytePacing.Chunk(range: 0..<Self.lines.reduce(0, +), offsetNanoseconds: 0)])
  }
}
