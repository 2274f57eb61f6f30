import Simulation
import Testing

@testable import Receiver

/// The memo of the last epoch's lines saves work and changes no byte: an encoder that keeps it
/// writes what a fresh encoder writes, whatever comes before.
@Suite struct EpochLineMemoTests {
  static let test = EpochGoldenBytesTests.Case(
    name: "ublox-f9p-fixed-orbital-10hz", profile: .ubloxF9P, moving: false, orbital: true,
    periodMilliseconds: 100, count: 60)

  /// The lines of `fix` from an encoder made afresh, with `encoder`'s settings but no memory.
  static func freshLines(
    _ encoder: EpochEncoder, _ fix: Fix, _ output: OutputSelection, _ index: Int
  ) -> [[UInt8]] {
    var fresh = EpochEncoder(profile: test.profile)
    fresh.dialect = encoder.dialect
    fresh.constellations = encoder.constellations
    fresh.enabledSentences = encoder.enabledSentences
    return fresh.lines(for: fix, output: output, epochIndex: index)
  }

  /// Epochs in order (GSV and GSA the same through each second), out of order, then with
  /// sentences switched off and on (each later place takes another type).
  @Test func anEncoderKeepingItsMemoWritesWhatAFreshOneWrites() throws {
    let source = try EpochGoldenBytesTests.source(Self.test)
    var encoder = source.encoder.nmea
    let output = source.encoder.output
    let order = Array(0..<30) + (0..<30).reversed() + [7, 3, 25, 3, 7, 11]
    var compared = 0
    for (step, index) in order.enumerated() {
      if step == 45 { encoder.enabledSentences.subtract(["GSA", "VTG"]) }
      if step == 55 { encoder.enabledSentences.formUnion(["GSA", "VTG"]) }
      let time = EpochGoldenBytesTests.start.adding(nanoseconds: Int64(index) * 100_000_000)
      let fix = source.fix(at: time)
      let lines = encoder.lines(for: fix, output: output, epochIndex: index)
      #expect(lines == Self.freshLines(encoder, fix, output, index), "step \(step), epoch \(index)")
      compared += lines.count
    }
    #expect(compared > order.count * 5)
  }

  /// An unchanged sentence is not written again: its line is the last epoch's, storage and all.
  @Test func anUnchangedSentenceTakesTheLastEpochsLine() throws {
    let source = try EpochGoldenBytesTests.source(Self.test)
    let encoder = source.encoder.nmea
    let output = source.encoder.output
    let time = EpochGoldenBytesTests.start
    let first = encoder.lines(for: source.fix(at: time), output: output, epochIndex: 0)
    let next = encoder.lines(
      for: source.fix(at: time.adding(nanoseconds: 100_000_000)), output: output, epochIndex: 1)
    let vtg = try #require(first.firstIndex { $0.starts(with: Array("$GNVTG".utf8)) })
    #expect(next[vtg] == first[vtg])
    let storage = { (line: [UInt8]) in line.withUnsafeBufferPointer { $0.baseAddress } }
    #expect(storage(next[vtg]) == storage(first[vtg]))
    // The time changed: RMC is written anew.
    #expect(next[0] != first[0])
  }
}
