import Simulation
import Testing

@testable import Receiver

/// The memo of the last epoch's lines saves work and changes no byte: an encoder that keeps it
/// writes what a fresh encoder writes, whatever comes before.
@Suite struct EpochLineMemoTests {
  static let test = EpochGoldenBytesTests.Case(
    name: "ublox-f9p-fixed-orbital-10hz", profile: .ubloxF9P, moving: false, orbital: true,
    periodMilliseconds: 100, count: 60)

  /// The lines of `fix` from an encoder made afresh, in `encoder`'s dialect and systems but with
  /// no memory.
  static func freshLines(
    _ encoder: EpochEncoder, _ fix: Fix, _ output: OutputSelection, _ index: Int
  ) -> [[UInt8]] {
    var fresh = EpochEncoder(profile: test.profile)
    fresh.dialect = encoder.dialect
    fresh.constellations = encoder.constellations
    return fresh.lines(for: fix, output: output, epochIndex: index)
  }

  /// Epochs in order (GSV and GSA the same through each second), out of order, with GSA at one
  /// epoch in two (the sentences after it move), then with GSV and VTG switched off and on.
  @Test func anEncoderKeepingItsMemoWritesWhatAFreshOneWrites() throws {
    let source = try EpochGoldenBytesTests.source(Self.test)
    let encoder = source.encoder.nmea
    var output = source.encoder.output
    output.nmea["GSA"] = 2
    let order = Array(0..<30) + (0..<30).reversed() + [7, 3, 25, 3, 7, 11]
    var compared = 0
    for (step, index) in order.enumerated() {
      if step == 45 {
        output.nmea["GSV"] = nil
        output.nmea["VTG"] = nil
      }
      if step == 55 {
        output.nmea["GSV"] = 1
        output.nmea["VTG"] = 1
      }
      let time = EpochGoldenBytesTests.start.adding(nanoseconds: Int64(index) * 100_000_000)
      let fix = source.fix(at: time)
      let lines = encoder.lines(for: fix, output: output, epochIndex: index)
      #expect(lines == Self.freshLines(encoder, fix, output, index), "step \(step), epoch \(index)")
      compared += lines.count
    }
    #expect(compared > order.count * 5)
  }

  /// An unchanged sentence is not written again: its line is the last epoch's, storage and all,
  /// also when a sentence before it was left out (a rate of one in N epochs) and it moved up.
  @Test func anUnchangedSentenceTakesTheLastEpochsLine() throws {
    let source = try EpochGoldenBytesTests.source(Self.test)
    let encoder = source.encoder.nmea
    var output = source.encoder.output
    let time = EpochGoldenBytesTests.start
    let first = encoder.lines(for: source.fix(at: time), output: output, epochIndex: 0)
    output.nmea["GSA"] = nil
    let next = encoder.lines(
      for: source.fix(at: time.adding(nanoseconds: 100_000_000)), output: output, epochIndex: 1)
    let storage = { (line: [UInt8]) in line.withUnsafeBufferPointer { $0.baseAddress } }
    let isGSV = { (line: [UInt8]) in line.count > 6 && Array(line[3..<6]) == Array("GSV".utf8) }
    let (pages, nextPages) = (first.filter(isGSV), next.filter(isGSV))
    #expect(pages.count > 4)
    #expect(nextPages == pages)
    #expect(nextPages.map(storage) == pages.map(storage))
    // GSA left out moved the pages up; the time changed, so RMC was written anew.
    #expect(first.firstIndex(where: isGSV) != next.firstIndex(where: isGSV))
    #expect(next[0] != first[0])
  }

  /// The satellites listed and their GSV pages are kept from the epoch before only while the
  /// encoder's dialect and systems stay: a copy of an encoder given another dialect or other
  /// systems within a second (same satellites, same storage) writes its own, and the original
  /// keeps writing its own, in turns.
  @Test func aCopyWithAnotherDialectOrOtherSystemsListsItsOwnSky() throws {
    let source = try EpochGoldenBytesTests.source(Self.test)
    let encoder = source.encoder.nmea
    let output = source.encoder.output
    var limited = encoder
    limited.dialect.gsvSatelliteLimit = 4
    var fewer = encoder
    fewer.constellations = [.gps]
    #expect(encoder.constellations.count > 1)
    var differed = 0
    for index in 0..<10 {
      let fix = source.fix(
        at: EpochGoldenBytesTests.start.adding(nanoseconds: Int64(index) * 100_000_000))
      for copy in [encoder, limited, fewer, encoder] {
        let text = { (lines: [[UInt8]]) in lines.map { String(decoding: $0, as: UTF8.self) } }
        #expect(
          text(copy.lines(for: fix, output: output, epochIndex: index))
            == text(Self.freshLines(copy, fix, output, index)), "epoch \(index)")
      }
      let (all, four) = (
        encoder.lines(for: fix, output: output, epochIndex: index),
        limited.lines(for: fix, output: output, epochIndex: index)
      )
      if all != four { differed += 1 }
    }
    #expect(differed == 10)
  }
}
