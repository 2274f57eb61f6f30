import Simulation
import Testing

@Suite struct FaultRandomNumberGeneratorTests {
  @Test func firstOutputsAreSplitMix64sReferenceValues() {
    var generator = FaultRandomNumberGenerator(seed: 1_234_567)
    #expect(
      [generator.next(), generator.next(), generator.next()] == [
        6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
      ])
  }

  @Test func theSameSeedAndTimeGiveTheSameStreamAndNeighbouringTimesDiffer() {
    let time = UTCInstant(nanosecondsSinceEpoch: 1_795_910_400_000_000_000)
    var a = FaultRandomNumberGenerator(seed: 7, time: time)
    var b = FaultRandomNumberGenerator(seed: 7, time: time)
    var c = FaultRandomNumberGenerator(seed: 7, time: time.adding(nanoseconds: 1))
    var d = FaultRandomNumberGenerator(seed: 8, time: time)
    let first = (0..<4).map { _ in a.next() }
    #expect((0..<4).map { _ in b.next() } == first)
    #expect((0..<4).map { _ in c.next() } != first)
    #expect((0..<4).map { _ in d.next() } != first)
  }

  @Test func normalNumbersHaveMean0AndStandardDeviation1() {
    var generator = FaultRandomNumberGenerator(seed: 42)
    let samples = (0..<20_000).map { _ in generator.nextStandardNormal() }
    let mean = samples.reduce(0, +) / Double(samples.count)
    let variance = samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count)
    #expect(abs(mean) < 0.03)
    #expect(abs(variance - 1) < 0.05)
    #expect(samples.allSatisfy { abs($0) <= 6 })
    var units = FaultRandomNumberGenerator(seed: 42)
    #expect((0..<1000).allSatisfy { _ in (0..<1).contains(units.nextUnit()) })
  }
}

@Suite struct FaultWindowTests {
  static let start = UTCInstant(year: 2026, month: 11, day: 29, hour: 12)
  static let end = start.adding(nanoseconds: 5_000_000_000)

  struct Case: CustomTestStringConvertible, Sendable {
    let window: FaultWindow
    let offsetNanoseconds: Int64
    let isActive: Bool
    var testDescription: String {
      "\(window) at start\(offsetNanoseconds >= 0 ? "+" : "")\(offsetNanoseconds) ns"
    }
  }

  @Test(arguments: [
    Case(window: FaultWindow(from: start, until: end), offsetNanoseconds: -1, isActive: false),
    Case(window: FaultWindow(from: start, until: end), offsetNanoseconds: 0, isActive: true),
    Case(
      window: FaultWindow(from: start, until: end), offsetNanoseconds: 4_999_999_999,
      isActive: true),
    Case(
      window: FaultWindow(from: start, until: end), offsetNanoseconds: 5_000_000_000,
      isActive: false),
    Case(window: FaultWindow(from: start), offsetNanoseconds: -1, isActive: false),
    Case(window: FaultWindow(from: start), offsetNanoseconds: 1 << 60, isActive: true),
    Case(window: FaultWindow(until: end), offsetNanoseconds: -(1 << 60), isActive: true),
    Case(window: FaultWindow(until: end), offsetNanoseconds: 5_000_000_000, isActive: false),
    Case(window: .always, offsetNanoseconds: 0, isActive: true),
    Case(
      window: FaultWindow(from: start, nanoseconds: 5_000_000_000),
      offsetNanoseconds: 5_000_000_000, isActive: false),
  ])
  func windowsIncludeTheirStartAndExcludeTheirEnd(_ row: Case) {
    #expect(
      row.window.contains(Self.start.adding(nanoseconds: row.offsetNanoseconds)) == row.isActive)
  }

  @Test func aWindowHasEndedAtItsEnd() {
    let window = FaultWindow(from: Self.start, until: Self.end)
    #expect(!window.hasEnded(by: Self.end.adding(nanoseconds: -1)))
    #expect(window.hasEnded(by: Self.end))
    #expect(!FaultWindow.always.hasEnded(by: Self.end))
  }
}
