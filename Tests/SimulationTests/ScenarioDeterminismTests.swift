import Geodesy
import Receiver
import Simulation
import TestFixtures
import Testing

/// The same scenario and seed give the same bytes, whatever the wall clock and the order the
/// epochs are asked for in.
@Suite struct ScenarioDeterminismTests {
  typealias Run = ScenarioRun

  static func scenario(seed: UInt64) -> Scenario {
    Run.scenario(
      [
        (0, .noise(sigmaMeters: 3, timeConstantSeconds: 8), nil),
        (5, .jump(northMeters: -12, eastMeters: 7, upMeters: 0), 4),
        (8, .corrupt(rate: 0.25, style: .checksum), 10),
        (12, .clock(offsetNanoseconds: -2_500_000_000), 3),
        (20, .corrupt(rate: 0.4, style: .truncate), nil),
      ], seed: seed)
  }

  /// The bytes of `count` epochs every 200 ms, read off a manual clock as the epoch loop does.
  static func bytes(_ scenario: Scenario, count: Int) -> [[UInt8]] {
    let source = Run.source(scenario)
    let clock = ManualClock(Run.start)
    return (0..<count).map { _ in
      defer { clock.advance(nanoseconds: 200_000_000) }
      return source.epoch(at: clock.now()).bytes
    }
  }

  @Test func compilingTwiceGivesByteIdenticalEpochs() {
    let first = Self.bytes(Self.scenario(seed: 42), count: 150)
    let second = Self.bytes(Self.scenario(seed: 42), count: 150)
    #expect(first == second)
    #expect(first.allSatisfy { !$0.isEmpty })
  }

  @Test func epochsAskedForBackwardsAreTheSameBytes() {
    let source = Run.source(Self.scenario(seed: 42))
    let times = (0..<60).map { Run.time(Double($0) * 0.5) }
    let forward = times.map { source.epoch(at: $0).bytes }
    let backward = times.reversed().map { source.epoch(at: $0).bytes }
    #expect(forward == backward.reversed())
  }

  @Test func anotherSeedGivesOtherNoiseAndOtherCorruption() {
    let first = Self.bytes(Self.scenario(seed: 42), count: 150)
    let other = Self.bytes(Self.scenario(seed: 43), count: 150)
    #expect(first[0] != other[0])
    #expect(first[110] != other[110])
  }
}
