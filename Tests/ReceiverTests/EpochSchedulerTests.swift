import Geodesy
import Receiver
import Simulation
import TestFixtures
import Testing

/// The scheduler on a manual clock: the pauses, late wake-ups and clock steps that a real
/// machine produces, made exact.
@Suite struct EpochSchedulerTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 30, hour: 12)
  static let second: Int64 = 1_000_000_000

  @Test func waitsForTheNextEpochOnTheGridThenSendsIt() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: 300_000_000))
    var scheduler = EpochScheduler(cadence: .oneHertz)
    let first = scheduler.step(now: clock.now())
    #expect(first.action == .wait(until: Self.noon.adding(nanoseconds: Self.second)))
    clock.advance(nanoseconds: 700_000_000)
    #expect(scheduler.step(now: clock.now()).action == .send(epoch: clock.now()))
    #expect(
      scheduler.step(now: clock.now()).action
        == .wait(until: Self.noon.adding(nanoseconds: 2 * Self.second)))
  }

  @Test func anEpochAFewMillisecondsLateIsStillSent() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: -1))
    var scheduler = EpochScheduler(cadence: try CadencePlan(rateHz: 10))
    _ = scheduler.step(now: clock.now())
    clock.advance(nanoseconds: 1 + 20_000_000)
    let step = scheduler.step(now: clock.now())
    #expect(step.action == .send(epoch: Self.noon))
    #expect(step.skippedEpochs == 0)
  }

  /// SIGSTOP for 2.5 s, then SIGCONT: the epochs missed are counted and skipped, none is sent
  /// late, and the next one waited for lies on the grid after the pause.
  @Test func epochsMissedInAPauseAreSkippedNotSentLate() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: -1))
    var scheduler = EpochScheduler(cadence: .oneHertz)
    _ = scheduler.step(now: clock.now())
    clock.advance(nanoseconds: 1 + 2_500_000_000)
    let step = scheduler.step(now: clock.now())
    #expect(step.skippedEpochs == 3)
    #expect(step.action == .wait(until: Self.noon.adding(nanoseconds: 3 * Self.second)))
    #expect(!step.replanned)
  }

  /// A forward step of the clock takes the same path as a pause.
  @Test func aForwardClockStepSkipsTheEpochsItJumpsOver() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: -50_000_000))
    var scheduler = EpochScheduler(cadence: try CadencePlan(rateHz: 20))
    _ = scheduler.step(now: clock.now())
    clock.advance(nanoseconds: 3600 * Self.second)
    let step = scheduler.step(now: clock.now())
    #expect(step.skippedEpochs == 72_000)
    #expect(step.action == .wait(until: Self.noon.adding(nanoseconds: 3600 * Self.second)))
  }

  /// Set back by an hour while waiting: plan again from the new time at once, instead of
  /// waiting an hour for the old deadline.
  @Test(arguments: [1.0, 10, 20]) func aClockSetBackIsPlannedAgainAtOnce(rateHz: Double) throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: 10_000_000))
    let cadence = try CadencePlan(rateHz: rateHz)
    var scheduler = EpochScheduler(cadence: cadence)
    _ = scheduler.step(now: clock.now())
    clock.advance(nanoseconds: -3600 * Self.second)
    let step = scheduler.step(now: clock.now())
    #expect(step.replanned)
    #expect(step.action == .wait(until: cadence.nextEpoch(after: clock.now())))
    #expect(step.skippedEpochs == 0)
  }

  @Test func aClockSetBackByLessThanAPeriodWaitsForTheSameEpoch() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: 100_000_000))
    var scheduler = EpochScheduler(cadence: .oneHertz)
    let first = scheduler.step(now: clock.now())
    clock.advance(nanoseconds: -50_000_000)
    let step = scheduler.step(now: clock.now())
    #expect(!step.replanned)
    #expect(step.action == first.action)
  }

  @Test func aNewRateStartsItsGridAfterTheCurrentTime() throws {
    let clock = ManualClock(Self.noon.adding(nanoseconds: 250_000_000))
    var scheduler = EpochScheduler(cadence: .oneHertz)
    _ = scheduler.step(now: clock.now())
    scheduler.change(cadence: try CadencePlan(rateHz: 5))
    #expect(
      scheduler.step(now: clock.now()).action
        == .wait(until: Self.noon.adding(nanoseconds: 400_000_000)))
  }
}

@Suite struct PacedBurstTests {
  /// 250 bytes at 2,500 a second, in writes of up to 40 ms of line time.
  static let chunks = [
    BytePacing.Chunk(range: 0..<100, startOffsetNanoseconds: 0, offsetNanoseconds: 40_000_000),
    BytePacing.Chunk(
      range: 100..<200, startOffsetNanoseconds: 40_000_000, offsetNanoseconds: 80_000_000),
    BytePacing.Chunk(
      range: 200..<250, startOffsetNanoseconds: 80_000_000, offsetNanoseconds: 100_000_000),
  ]
  static let tolerance: Int64 = 25_000_000

  /// The first byte leaves when the epoch is due, as on a UART; each later write when the line
  /// has carried the one before.
  @Test func eachChunkLeavesWhenTheLineWouldStartSendingIt() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 1_000, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 1_000) == .write(0..<100))
    #expect(burst.next(now: 1_000) == .wait(untilNanoseconds: 40_001_000))
    #expect(burst.next(now: 40_001_000) == .write(100..<200))
    #expect(burst.next(now: 40_002_000) == .wait(untilNanoseconds: 80_001_000))
    #expect(burst.next(now: 80_001_000) == .write(200..<250))
    #expect(burst.next(now: 80_001_000) == .done)
    #expect(burst.writtenCount == 3)
  }

  /// The plan of `BytePacing.chunks` starts at once: no epoch waits for its first chunk's
  /// line time before its first byte.
  @Test func aPlannedBurstWritesItsFirstChunkWhenDue() throws {
    let chunks = try BytePacing(baud: 115_200).chunks(forLineLengths: [72, 70, 68, 40])
    var burst = PacedBurst(chunks: chunks, startNanoseconds: 5_000, toleranceNanoseconds: 0)
    #expect(burst.next(now: 5_000) == .write(0..<250))
  }

  /// A write that comes late holds the next ones back by as much: never faster than the line.
  @Test func aLateChunkDelaysTheRestInsteadOfRushingThem() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 20_000_000) == .write(0..<100))
    #expect(burst.next(now: 40_000_000) == .wait(untilNanoseconds: 60_000_000))
    #expect(burst.next(now: 60_000_000) == .write(100..<200))
    #expect(burst.next(now: 60_000_000) == .wait(untilNanoseconds: 100_000_000))
  }

  /// The process was stopped in the middle of a burst: the rest is dropped, not rushed out.
  @Test func aBurstThatFellBehindDropsTheRest() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 0) == .write(0..<100))
    #expect(burst.next(now: 2_500_000_000) == .dropRest(byteCount: 150))
    #expect(burst.next(now: 2_500_000_000) == .done)
    #expect(burst.writtenCount == 1)
  }

  /// Stopped between deciding to send and the first write: the whole epoch is late, and none
  /// of it leaves.
  @Test func anEpochWhoseFirstWriteIsTooLateIsNotSentAtAll() {
    let unpaced = [BytePacing.Chunk(range: 0..<500, offsetNanoseconds: 0)]
    var burst = PacedBurst(
      chunks: unpaced, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: 300_000_000) == .dropRest(byteCount: 500))
    #expect(burst.writtenCount == 0)
  }

  @Test func aChunkWithinToleranceIsStillWritten() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: Self.tolerance) == .write(0..<100))
  }

  @Test func aFirstChunkPastToleranceDropsTheEpoch() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.next(now: Self.tolerance + 1) == .dropRest(byteCount: 250))
    #expect(burst.writtenCount == 0)
  }

  /// The line is free when the last chunk written has been carried, delays included.
  @Test func theLineIsFreeOnceTheLastWrittenChunkIsCarried() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance)
    #expect(burst.lineFreeNanoseconds == nil)
    #expect(burst.next(now: 5_000_000) == .write(0..<100))
    #expect(burst.firstWriteNanoseconds == 5_000_000)
    #expect(burst.lineFreeNanoseconds == 45_000_000)
    #expect(burst.next(now: 45_000_000) == .write(100..<200))
    #expect(burst.next(now: 85_000_000) == .write(200..<250))
    #expect(burst.lineFreeNanoseconds == 105_000_000)
  }

  /// An epoch due while the line still carries the one before waits for it, and its later
  /// chunks move with the first: the line rate is never exceeded.
  @Test func anEpochDueWhileTheLineIsBusyWaitsForIt() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance,
      notBeforeNanoseconds: 10_000_000)
    #expect(burst.next(now: 0) == .wait(untilNanoseconds: 10_000_000))
    #expect(burst.next(now: 10_000_000) == .write(0..<100))
    #expect(burst.firstWriteNanoseconds == 10_000_000)
    #expect(burst.next(now: 40_000_000) == .wait(untilNanoseconds: 50_000_000))
  }

  /// A line busy past the tolerance: the epoch is dropped at once as late, without a wait.
  @Test func anEpochWhoseLineIsBusyPastToleranceIsDroppedAtOnce() {
    var burst = PacedBurst(
      chunks: Self.chunks, startNanoseconds: 0, toleranceNanoseconds: Self.tolerance,
      notBeforeNanoseconds: Self.tolerance + 1)
    #expect(burst.next(now: 0) == .dropRest(byteCount: 250))
    #expect(burst.writtenCount == 0)
    #expect(burst.lineFreeNanoseconds == nil)
  }
}

@Suite struct SimulatedTimeTests {
  static let wireNow = UTCInstant(year: 2026, month: 11, day: 30, hour: 12, nanosecond: 400_000_000)

  @Test func realTimeIsTheWiresTime() {
    #expect(SimulatedTime.realTime.simulated(atWire: Self.wireNow) == Self.wireNow)
    let anchored = SimulatedTime(start: nil, scale: 1, wireNow: Self.wireNow)
    #expect(anchored.simulated(atWire: Self.wireNow) == Self.wireNow)
  }

  /// Scaled, simulated time starts at the start time at the next whole wire second, so that
  /// nothing after the start is skipped, and whole wire seconds stay whole simulated ones.
  @Test func aStartTimeAndAScaleMapWholeWireSecondsToWholeSimulatedSeconds() {
    let start = UTCInstant(year: 2020, month: 1, day: 1)
    let time = SimulatedTime(start: start, scale: 2, wireNow: Self.wireNow)
    let nextWireSecond = UTCInstant(year: 2026, month: 11, day: 30, hour: 12, second: 1)
    #expect(time.simulated(atWire: nextWireSecond) == start)
    #expect(
      time.simulated(atWire: nextWireSecond.adding(nanoseconds: 1_000_000_000))
        == start.adding(nanoseconds: 2_000_000_000))
    #expect(time.simulated(atWire: Self.wireNow) < start)
  }

  @Test func aScaledClockReadsItsBaseThroughTheMapping() {
    let base = ManualClock(Self.wireNow)
    let time = SimulatedTime(start: nil, scale: 10, wireNow: Self.wireNow)
    let clock = ScaledClock(base: base, time: time)
    base.advance(nanoseconds: 1_000_000_000)
    // From 12:00:01, the next whole second, 0.4 wire seconds ten times as fast.
    #expect(clock.now() == Self.wireNow.adding(nanoseconds: 600_000_000 + 4_000_000_000))
  }
}

@Suite struct SceneSourceTests {
  static let noon = UTCInstant(year: 2026, month: 11, day: 30, hour: 12)
  static let scene = Scene(motion: FixedPosition(EmulatorConfigurationDefaults.greenwich))

  @Test func withoutFaultsEachSentenceIsOnePacket() {
    let epoch = SceneSource(scene: Self.scene).epoch(at: Self.noon)
    #expect(epoch.packets.count == 9)
    #expect(epoch.packets.allSatisfy { $0.suffix(2) == [0x0D, 0x0A] })
    #expect(epoch.fix?.time == Self.noon)
  }

  @Test func wireFaultsApplyInsideTheirWindowOnly() {
    let window = FaultWindow(from: Self.noon, nanoseconds: 1_000_000_000)
    let source = SceneSource(scene: Self.scene, wireFaults: [WireFault(.silence, window: window)])
    #expect(source.epoch(at: Self.noon).packets.isEmpty)
    #expect(source.epoch(at: Self.noon.adding(nanoseconds: 1_000_000_000)).packets.count == 9)
  }

  @Test func corruptedBytesAreStillSplitIntoLines() {
    let source = SceneSource(
      scene: Self.scene, wireFaults: [WireFault(.truncateEpoch(afterBytes: 100))])
    let packets = source.epoch(at: Self.noon).packets
    #expect(packets.reduce(0) { $0 + $1.count } == 100)
    #expect(packets.dropLast().allSatisfy { $0.last == 0x0A })
  }
}

/// The default place, without importing the emulator.
enum EmulatorConfigurationDefaults {
  static let greenwich = GeodeticPosition(known: 51.477_928, -0.001_545, altitudeMeters: 46)
}
