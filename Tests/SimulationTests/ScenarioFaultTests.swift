import Geodesy
import Receiver
import Simulation
import Testing

/// The fault kinds scenarios added to the one fault machinery, used directly as a control
/// socket would.
@Suite struct ScenarioFaultTests {
  static let time = UTCInstant(year: 2024, month: 7, day: 1, hour: 12)
  static let position = GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)

  static func fix(_ faults: FixFaults, at time: UTCInstant = time) -> Fix {
    Scene(motion: FixedPosition(position), faults: faults).fix(at: time)
  }

  static func second(_ count: Int64) -> UTCInstant {
    time.adding(nanoseconds: count * 1_000_000_000)
  }

  @Test func gaussMarkovNoiseHasItsSigmaAndItsCorrelation() {
    let noise = GaussMarkovNoise(sigmaMeters: 4, timeConstantSeconds: 5, seed: 11)
    let north = (0..<4000).map { noise.offsets(at: Self.second(Int64($0))).northMeters }
    let mean = north.reduce(0, +) / Double(north.count)
    let deviations = north.map { $0 - mean }
    let variance = deviations.map { $0 * $0 }.reduce(0, +) / Double(north.count)
    let lagged = zip(deviations, deviations.dropFirst()).map { $0 * $1 }.reduce(0, +)
    let correlation = lagged / Double(north.count - 1) / variance
    #expect(abs(variance.squareRoot() - 4) < 0.4, "sigma \(variance.squareRoot())")
    #expect(abs(correlation - 0.818_730_753) < 0.04, "correlation \(correlation)")
  }

  @Test func gaussMarkovNoiseIsTheSameWhateverTheOrderOfTheQuestions() {
    let noise = GaussMarkovNoise(sigmaMeters: 3, timeConstantSeconds: 20, seed: 5)
    let times = (0..<30).map { Self.time.adding(nanoseconds: Int64($0) * 700_000_000) }
    let forward = times.map { noise.offsets(at: $0).northMeters }
    let backward = times.reversed().map { noise.offsets(at: $0).northMeters }
    #expect(forward == backward.reversed())
    let other = GaussMarkovNoise(sigmaMeters: 3, timeConstantSeconds: 20, seed: 6)
    #expect(times.map { other.offsets(at: $0).northMeters } != forward)
  }

  @Test func gaussMarkovNoiseIsInterpolatedBetweenWholeSeconds() {
    let noise = GaussMarkovNoise(sigmaMeters: 3, timeConstantSeconds: 20, seed: 5)
    let before = noise.offsets(at: Self.second(7))
    let after = noise.offsets(at: Self.second(8))
    let middle = noise.offsets(at: Self.second(7).adding(nanoseconds: 500_000_000))
    #expect(abs(middle.eastMeters - (before.eastMeters + after.eastMeters) / 2) < 1e-12)
  }

  @Test(arguments: [0.0, 1, 30, 600, 10_000])
  func theSumLeavesOutLessThanAMillionth(_ timeConstant: Double) {
    let noise = GaussMarkovNoise(sigmaMeters: 1, timeConstantSeconds: timeConstant, seed: 1)
    var weight = 1.0
    for _ in 0..<noise.memory { weight *= noise.correlation }
    #expect(weight < 1e-6 || noise.correlation == 0)
    #expect(noise.memory == 0 || weight / noise.correlation >= 1e-6)
    #expect(noise.memory <= 8290)
  }

  @Test func windowsFollowTheTrueTimeWhenTheClockIsOff() {
    let window = FaultWindow(from: Self.time, until: Self.second(1))
    let faults: FixFaults = [
      FixFault(.clockOffset(nanoseconds: -3_600_000_000_000), window: window),
      FixFault(.forceMode(.noFix), window: window),
    ]
    let fix = Self.fix(faults)
    #expect(fix.mode == .noFix)
    #expect(fix.time == Self.time.adding(nanoseconds: -3_600_000_000_000))
    #expect(Self.fix(faults, at: Self.second(1)).time == Self.second(1))
  }

  @Test func aHugeClockOffsetStaysInTheRangeTimesCanBeWritten() {
    let fix = Self.fix([
      FixFault(.clockOffset(nanoseconds: .min)), FixFault(.clockOffset(nanoseconds: .min)),
    ])
    #expect(fix.time.civil.year == 1678)
    #expect(!EpochEncoder().bytes(for: fix).isEmpty)
  }

  @Test func aCorrectionIsDroppedWithoutAFix() {
    let faults: FixFaults = [FixFault(.correction(.rtkFixed)), FixFault(.forceMode(.noFix))]
    #expect(Self.fix(faults).correction == .none)
    #expect(Self.fix([FixFault(.correction(.rtkFixed))]).correction == .rtkFixed)
  }

  @Test func dopValuesKeepTheTimeDOPAndNeedAFix() throws {
    let clean = try #require(Self.fix(.none).dop)
    let set = try #require(
      Self.fix([FixFault(.setDOP(horizontal: 2, vertical: 3, position: 4))]).dop)
    #expect(set == DilutionOfPrecision(position: 4, horizontal: 2, vertical: 3, time: clean.time))
    let lost: FixFaults = [
      FixFault(.loseSatellites(.all)), FixFault(.setDOP(horizontal: 2, vertical: 3, position: 4)),
    ]
    #expect(Self.fix(lost).dop == nil)
  }

  @Test func aColdStartOutsideItsTimeToFirstFixChangesNothing() {
    let faults: FixFaults = [
      FixFault(.coldStart(since: Self.second(10), timeToFirstFixNanoseconds: 5_000_000_000))
    ]
    #expect(Self.fix(faults, at: Self.second(9)) == Self.fix(.none, at: Self.second(9)))
    // After it the fix is the fault-free one, but for when the signals were locked again.
    var found = Self.fix(faults, at: Self.second(15))
    #expect(found.signalsReacquired == Self.second(10))
    found.signalsReacquired = nil
    #expect(found == Self.fix(.none, at: Self.second(15)))
    let searching = Self.fix(faults, at: Self.second(12))
    #expect(searching.mode == .noFix && searching.satellites.count == 4)
    #expect(searching.satellitesUsed.isEmpty)
  }

  static let sentences = EpochEncoder().sentences(for: fix(.none))

  @Test func sentenceCorruptionIsDrawnFromSeedTimeAndIndex() {
    let corrupt: WireFaults = [
      WireFault(.corruptSentences(rate: 0.5, style: .checksum, seed: 3))
    ]
    let first = corrupt.apply(to: Self.sentences, at: Self.time)
    #expect(first == corrupt.apply(to: Self.sentences, at: Self.time))
    #expect(first != corrupt.apply(to: Self.sentences, at: Self.second(1)))
    let none: WireFaults = [WireFault(.corruptSentences(rate: 0, style: .truncate, seed: 3))]
    #expect(
      none.apply(to: Self.sentences, at: Self.time)
        == WireFaults.none.apply(
          to: Self.sentences, at: Self.time))
    let all: WireFaults = [WireFault(.corruptSentences(rate: 1, style: .checksum, seed: 3))]
    let lines = ScenarioRun.lines(all.apply(to: Self.sentences, at: Self.time))
    #expect(lines.count == Self.sentences.count)
    #expect(!lines.contains(where: ScenarioRun.hasValidChecksum))
  }

  @Test func anActionInjectedAtRunTimeIsTheFaultItsScenarioCompilesTo() {
    let window = FaultWindow(from: ScenarioRun.time(10), nanoseconds: 5_000_000_000)
    let scenario = ScenarioRun.scenario([(10, .corrupt(rate: 0.5, style: .truncate), 5)], seed: 9)
    let compiled = scenario.compiled()
    let injected = Scenario.Action.corrupt(rate: 0.5, style: .truncate).faults(
      since: ScenarioRun.time(10), window: window, seed: 9)
    #expect(injected.fix.isEmpty)
    #expect(WireFaults(injected.wire) == compiled.wireFaults)
    let noise = Scenario.Action.noise(sigmaMeters: 2, timeConstantSeconds: 5)
    let compiledNoise = ScenarioRun.scenario([(10, noise, 5)], seed: 9).compiled().scene.faults
    #expect(
      FixFaults(noise.faults(since: ScenarioRun.time(10), window: window, seed: 9).fix)
        == compiledNoise)
  }
}
