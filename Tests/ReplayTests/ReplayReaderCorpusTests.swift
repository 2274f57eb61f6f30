import Foundation
import TestFixtures
import Testing

@testable import Replay

/// The reader on gpsd's regression logs: bytes kept, epochs as the logs' times change, offsets
/// as the time fields say.
@Suite(.blocking) struct ReplayReaderCorpusTests {
  /// 1 Hz (ublox-lea-5h has `# Date:`, bundg_zeus_9 is a long one, ublox-zed-f9p_hpg1.11 has
  /// 655 epochs) and 10 Hz (rst39, nmea-rtk, which also pauses 630 s). No log of the corpus
  /// crosses midnight cleanly (see `ReplayReaderTests` for a made one).
  static let timedLogs = [
    "ublox-lea-5h.log", "bundg_zeus_9.log", "ublox-zed-f9p_hpg1.11.log", "rst39.log",
    "nmea-rtk.log",
  ]

  @Test(arguments: timedLogs)
  func epochsFollowTheTimeFieldsAndKeepEveryByte(name: String) throws {
    let url = try Fixtures.gpsdLog(name)
    let reader = try ReplayReader(path: url.path)
    let epochs = try ReplayReaderTestSupport.epochs(of: reader)
    #expect(epochs.flatMap(\.bytes) == Array(try Data(contentsOf: url)))

    let times = try ReplayReaderTestSupport.distinctTimes(of: url)
    var expected: [Int64] = [0]
    for (previous, time) in zip(times, times.dropFirst()) {
      var gap = time - previous
      if gap < -43_200_000_000_000 { gap += 86_400_000_000_000 }
      expected.append(expected[expected.count - 1] + gap)
    }
    let offsets = epochs.compactMap(\.offsetNanoseconds)
    #expect(offsets == expected)
    #expect(reader.statistics.timeJumps == 0)
    #expect(reader.statistics.epochs == epochs.count)
    // Only what comes before the first time (headers, TXT) is untimed.
    let firstTimed = try #require(epochs.firstIndex { $0.offsetNanoseconds != nil })
    #expect(epochs[firstTimed...].allSatisfy { $0.offsetNanoseconds != nil })
    #expect(firstTimed <= 1)
  }

  /// mtk-3301 and rgm3800 jump from 23:59:5x to the morning (a receiver that had no time yet):
  /// the jump is not believed, and the log goes on at its rate.
  @Test(arguments: ["mtk-3301.log", "rgm3800.log"])
  func aJumpOfHoursIsReplacedByTheGapBefore(name: String) throws {
    let reader = try ReplayReader(path: try ReplayReaderCorpusTests.logPath(name))
    let offsets = try ReplayReaderTestSupport.epochs(of: reader).compactMap(\.offsetNanoseconds)
    let gaps = zip(offsets, offsets.dropFirst()).map { $1 - $0 }
    #expect(reader.statistics.timeJumps == 1)
    #expect(gaps.allSatisfy { (900_000_000...1_500_000_000).contains($0) }, "\(gaps)")
  }

  @Test func everyCorpusLogIsReadBackByteForByteWithOffsetsNeverGoingBack() throws {
    var checked = 0
    let logs = try Fixtures.gpsdLogs()
    for url in logs {
      // Every log opens: the binary ones through their frames, RTCM 2 and the NTRIP ones as
      // unframed data.
      let reader = try ReplayReader(path: url.path)
      let epochs = try ReplayReaderTestSupport.epochs(of: reader)
      // A delay cookie log loses its delimiters (see `theDelayCookieCutsTheDataAsGpsfakeDoes`).
      let bytes = Array(try Data(contentsOf: url))
      #expect(
        reader.header.delayCookie != nil || epochs.flatMap(\.bytes) == bytes,
        "\(url.lastPathComponent)")
      let offsets = epochs.compactMap(\.offsetNanoseconds)
      #expect(
        zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 }, "\(url.lastPathComponent)")
      checked += 1
    }
    #expect(checked == logs.count && checked > 150)
  }

  @Test func aLogWhoseTimeGoesBackCountsTheJump() throws {
    // bt451 repeats an earlier time once.
    let reader = try ReplayReader(path: try Fixtures.gpsdLog("bt451.log").path)
    let offsets = try ReplayReaderTestSupport.epochs(of: reader).compactMap(\.offsetNanoseconds)
    #expect(reader.statistics.timeJumps >= 1)
    #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func theDelayCookieCutsTheDataAsGpsfakeDoes() throws {
    let url = try Fixtures.gpsdLog("tcp-torture.log")
    let reader = try ReplayReader(path: url.path)
    let epochs = try ReplayReaderTestSupport.epochs(of: reader)
    #expect(reader.header.transport == .tcp)
    let text = Array(try Data(contentsOf: url))
    let dataStart = try #require(
      text.indices.first { $0 > 0 && text[$0 - 1] == 0x0A && text[$0] != UInt8(ascii: "#") })
    let pieces = text[dataStart...].split(
      separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
    let timed = epochs.filter { $0.offsetNanoseconds != nil }
    #expect(timed.map(\.bytes) == pieces.map(Array.init))
    #expect(
      timed.enumerated().allSatisfy { $1.offsetNanoseconds == Int64($0) * 10_000_000 })
    #expect(
      epochs.flatMap(\.bytes)
        == Array(text[..<dataStart]) + text[dataStart...].filter { $0 != UInt8(ascii: "|") })
  }
}

extension ReplayReaderCorpusTests {
  /// The path of a corpus log.
  static func logPath(_ name: String) throws -> String {
    try Fixtures.gpsdLog(name).path
  }
}
