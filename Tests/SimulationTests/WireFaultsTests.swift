import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

@Suite struct WireFaultsTests {
  static let time = UTCInstant(year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54)
  static let sentences = EpochEncoder().sentences(
    for: Scene(motion: FixedPosition(GeodeticPosition(known: 51.477928, -0.001545)))
      .fix(at: time))
  static let clean = Array(sentences.map(\.line).joined().utf8)

  static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
  }

  @Test func withoutFaultsTheBytesAreTheEncoders() {
    #expect(WireFaults.none.apply(to: Self.sentences, at: Self.time) == Self.clean)
    #expect(Self.sentences.count == 9)
  }

  @Test func silenceSendsNothingWhateverElseIsActive() {
    let faults: WireFaults = [
      WireFault(.corruptChecksum(every: 1)), WireFault(.silence),
      WireFault(.byteNoise(probability: 0.5, seed: 1)),
    ]
    #expect(faults.apply(to: Self.sentences, at: Self.time).isEmpty)
  }

  struct ChecksumCase: CustomTestStringConvertible, Sendable {
    let period: Int
    let corrupted: [Int]
    var testDescription: String { "every \(period)" }
  }

  @Test(arguments: [
    ChecksumCase(period: 1, corrupted: Array(0..<9)),
    ChecksumCase(period: 0, corrupted: Array(0..<9)),
    ChecksumCase(period: 3, corrupted: [2, 5, 8]),
    ChecksumCase(period: 4, corrupted: [3, 7]),
    ChecksumCase(period: 10, corrupted: []),
  ])
  func corruptChecksumsBreakEveryNthSentenceAndKeepTheirBodies(_ row: ChecksumCase) throws {
    let faults: WireFaults = [WireFault(.corruptChecksum(every: row.period))]
    let lines = Self.lines(faults.apply(to: Self.sentences, at: Self.time))
    #expect(lines.count == 9)
    for (index, line) in lines.enumerated() {
      let sentence = Self.sentences[index]
      if row.corrupted.contains(index) {
        let expected = SentenceError.badChecksum(
          expected: sentence.checksum, found: ~sentence.checksum)
        #expect(throws: expected) { try RawSentence(parsing: line) }
        #expect(line.hasPrefix("$\(sentence.body)*"))
      } else {
        #expect(line == sentence.description)
      }
    }
  }

  @Test func epochTruncationCutsAfterTheGivenBytes() {
    for count in [0, 1, 100, Self.clean.count - 1] {
      let faults: WireFaults = [WireFault(.truncateEpoch(afterBytes: count))]
      #expect(faults.apply(to: Self.sentences, at: Self.time) == Array(Self.clean.prefix(count)))
    }
    let long: WireFaults = [WireFault(.truncateEpoch(afterBytes: 100_000))]
    #expect(long.apply(to: Self.sentences, at: Self.time) == Self.clean)
    let negative: WireFaults = [WireFault(.truncateEpoch(afterBytes: -5))]
    #expect(negative.apply(to: Self.sentences, at: Self.time).isEmpty)
  }

  @Test func sentenceTruncationCutsEachLineAndKeepsItsEnding() {
    let faults: WireFaults = [WireFault(.truncateSentences(afterBytes: 20))]
    let text = String(decoding: faults.apply(to: Self.sentences, at: Self.time), as: UTF8.self)
    #expect(text == Self.sentences.map { $0.description.prefix(20) + "\r\n" }.joined())
  }

  @Test func byteNoiseIsTheSameForTheSameSeedAndEpochTime() {
    let faults: WireFaults = [WireFault(.byteNoise(probability: 0.1, seed: 5))]
    let other: WireFaults = [WireFault(.byteNoise(probability: 0.1, seed: 6))]
    let next = Self.time.adding(nanoseconds: 1_000_000_000)
    let noisy = faults.apply(to: Self.sentences, at: Self.time)
    #expect(faults.apply(to: Self.sentences, at: Self.time) == noisy)
    #expect(noisy.count == Self.clean.count)
    #expect(noisy != Self.clean)
    #expect(faults.apply(to: Self.sentences, at: next) != noisy)
    #expect(other.apply(to: Self.sentences, at: Self.time) != noisy)
  }

  struct NoiseCase: CustomTestStringConvertible, Sendable {
    let probability: Double
    let changed: ClosedRange<Double>
    var testDescription: String { "p \(probability)" }
  }

  @Test(arguments: [
    NoiseCase(probability: 0, changed: 0...0), NoiseCase(probability: .nan, changed: 0...0),
    NoiseCase(probability: 0.05, changed: 0.03...0.07), NoiseCase(probability: 1, changed: 1...1),
  ])
  func byteNoiseChangesBytesWithItsProbability(_ row: NoiseCase) {
    let faults: WireFaults = [WireFault(.byteNoise(probability: row.probability, seed: 11))]
    var changed = 0
    var total = 0
    for second in 0..<20 {
      let time = Self.time.adding(nanoseconds: Int64(second) * 1_000_000_000)
      let noisy = faults.apply(to: Self.sentences, at: time)
      changed += zip(noisy, Self.clean).filter { $0 != $1 }.count
      total += Self.clean.count
    }
    #expect(row.changed.contains(Double(changed) / Double(total)))
  }

  @Test func faultsApplyOnlyInsideTheirWindow() {
    let until = Self.time.adding(nanoseconds: 2_000_000_000)
    let faults: WireFaults = [
      WireFault(.silence, window: FaultWindow(from: Self.time, until: until))
    ]
    #expect(faults.apply(to: Self.sentences, at: Self.time.adding(nanoseconds: -1)) == Self.clean)
    #expect(faults.apply(to: Self.sentences, at: Self.time).isEmpty)
    #expect(faults.apply(to: Self.sentences, at: until.adding(nanoseconds: -1)).isEmpty)
    #expect(faults.apply(to: Self.sentences, at: until) == Self.clean)
  }

  @Test func endedFaultsCanBeForgotten() {
    var faults: WireFaults = [
      WireFault(.silence, window: FaultWindow(until: Self.time)),
      WireFault(.corruptChecksum(every: 2)),
    ]
    faults.removeEnded(by: Self.time)
    #expect(faults == [WireFault(.corruptChecksum(every: 2))])
  }
}
