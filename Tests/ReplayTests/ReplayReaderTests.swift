import Foundation
import InputFiles
import TestFixtures
import Testing

@testable import Replay

/// The reader on logs made for the purpose: rates, loops, dropping, errors, bounded memory.
@Suite(.blocking) struct ReplayReaderTests {
  typealias Support = ReplayReaderTestSupport

  /// `count` epochs of a 10 Hz receiver from 12:00:00.00.
  static func tenHertzLog(count: Int, header: String = "", date: String = "") -> [UInt8] {
    var text = header
    for index in 0..<count {
      text += Support.epochText(centiseconds: 4_320_000 + index * 10, date: date)
    }
    return Array(text.utf8)
  }

  @Test func aTenHertzLogGivesEpochs100MillisecondsApart() throws {
    let path = try Support.temporaryLog(Self.tenHertzLog(count: 50))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.count == 50)
    #expect(epochs.map(\.offsetNanoseconds) == (0..<50).map { Int64($0) * 100_000_000 })
    #expect(epochs.allSatisfy { $0.packets.count == 3 && !$0.arrivedTogether })
    #expect(reader.statistics.packetsByKind == [.nmea: 150])
  }

  @Test func midnightIsTheNextDay() throws {
    let text = (0..<5).map { Support.epochText(centiseconds: 8_639_980 + $0 * 10) }.joined()
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.map(\.offsetNanoseconds) == (0..<5).map { Int64($0) * 100_000_000 })
    #expect(reader.statistics.timeJumps == 0)
  }

  @Test func sentencesWithoutTimeAndCommentsJoinTheCurrentEpoch() throws {
    let text =
      "# Serial: 38400 8N1\n" + Support.sentence("GPTXT,01,01,02,hello")
      + Support.epochText(centiseconds: 100) + "# a remark\n"
      + Support.sentence("GPGSV,1,1,01,05,04,187,")
      + Support.epochText(centiseconds: 200)
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.map(\.offsetNanoseconds) == [nil, 0, 1_000_000_000])
    #expect(epochs.map(\.packets.count) == [2, 5, 3])
    #expect(reader.header.serial == LogHeader.Serial(baud: 38400))
  }

  @Test func loopingStartsAgainOneTypicalGapLaterWithTimeGoingOn() throws {
    let path = try Support.temporaryLog(Self.tenHertzLog(count: 5, header: "# log\n"))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path, options: ReplayOptions(looping: true))
    let epochs = try Support.epochs(of: reader, limit: 18)
    let offsets = epochs.compactMap(\.offsetNanoseconds)
    #expect(offsets == (0..<15).map { Int64($0) * 100_000_000 })
    #expect(epochs.filter { $0.offsetNanoseconds == nil }.count == 3)
    #expect(reader.statistics.loops == 2)
    let once = try Support.epochs(of: try ReplayReader(path: path))
    #expect(Array(epochs.prefix(once.count).flatMap(\.bytes)) == once.flatMap(\.bytes))
  }

  @Test func dropInvalidDropsGarbageAndKeepsComments() throws {
    let text =
      "# header\n" + Support.epochText(centiseconds: 100) + "noise\n\u{0}\u{0}junk\n"
      + Support.epochText(centiseconds: 200)
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let kept = try ReplayReader(path: path)
    #expect(try Support.epochs(of: kept).flatMap(\.bytes) == Array(text.utf8))
    // How many packets the garbage makes is the splitter's business.
    let problems = kept.statistics.problems.values.reduce(0, +)
    #expect(problems >= 1)
    #expect(kept.statistics.dropped == 0)

    let dropping = try ReplayReader(path: path, options: ReplayOptions(dropInvalid: true))
    let epochs = try Support.epochs(of: dropping)
    let expected =
      "# header\n" + Support.epochText(centiseconds: 100)
      + Support.epochText(centiseconds: 200)
    #expect(epochs.flatMap(\.bytes) == Array(expected.utf8))
    #expect(dropping.statistics.dropped == problems)
    #expect(dropping.statistics.problems == kept.statistics.problems)
  }

  @Test func aMissingFileIsUnreadable() throws {
    let error = #expect(throws: InputFileError.self) {
      try ReplayReader(path: "/nonexistent/replay.nmea")
    }
    #expect(
      error == .unreadable(path: "/nonexistent/replay.nmea", reason: "No such file or directory"))
    #expect(error?.exitCode == 66)
    let directory = #expect(throws: InputFileError.self) { try ReplayReader(path: "/tmp") }
    #expect(directory?.exitCode == 66)
  }

  @Test(arguments: ["", "# only a comment\n# and another\n", "garbage\n\u{1}\u{2}\n"])
  func aFileWithNothingToReplayIsInvalid(text: String) throws {
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let error = #expect(throws: InputFileError.self) { try ReplayReader(path: path) }
    #expect(
      error?.description
        == "\(path): nothing to replay: no NMEA sentence, binary frame or recording found")
    #expect(error?.exitCode == 65)
  }

  @Test func unframedDataIsReplayedAsRecordedFromSixtyFourBytesOn() throws {
    // RTCM 2 is a stream of 6-of-8 bytes (0x40 to 0x7F) that the splitter does not frame.
    // Seeded: a random draw now and then holds something the splitter does frame.
    var generator = SplitMix64(seed: 2)
    let stream = (0..<200).map { _ in UInt8.random(in: 0x40...0x7F, using: &generator) }
    let path = try Support.temporaryLog(Array("# RTCM 2\n".utf8) + stream)
    defer { Support.remove(path) }
    let epochs = try ReplayReaderTestSupport.epochs(of: try ReplayReader(path: path))
    #expect(epochs.flatMap(\.bytes) == Array("# RTCM 2\n".utf8) + stream)
    let few = try Support.temporaryLog(Array(stream.prefix(63)))
    defer { Support.remove(few) }
    #expect(throws: InputFileError.self) { try ReplayReader(path: few) }
  }

  @Test func aLargeLogIsReadInBoundedMemory() throws {
    // About 8 MB at 10 Hz, 29 000 epochs (over a hundred of the reader's chunks: what it holds
    // is bounded by a chunk whatever the size), written in blocks. 50 MB took 2 minutes of a
    // debug build's suite.
    let path = try Support.temporaryLog([])
    defer { Support.remove(path) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var written = 0
    var epoch = 0
    while written < 8_000_000 {
      var block = ""
      for _ in 0..<1000 {
        block += Support.epochText(centiseconds: epoch * 10)
        epoch += 1
      }
      let data = Data(block.utf8)
      handle.write(data)
      written += data.count
    }
    try handle.close()

    let reader = try ReplayReader(path: path)
    var epochs = 0
    var largestEpoch = 0
    var bytes = 0
    while let next = try reader.next() {
      epochs += 1
      largestEpoch = max(largestEpoch, next.byteCount)
      bytes += next.byteCount
    }
    #expect(bytes == written)
    #expect(epochs == epoch)
    #expect(largestEpoch < 400)
    #expect(reader.largestHeldBytes <= LogFileStream.chunkSize + 400)
  }

  @Test func anEpochWithoutTimeIsCutSoMemoryStaysBounded() throws {
    let line = Support.sentence("GPGSV,1,1,01,05,04,187,")
    let text = String(repeating: line, count: 20_000)
    let path = try Support.temporaryLog(Array(text.utf8))
    defer { Support.remove(path) }
    let reader = try ReplayReader(path: path)
    let epochs = try Support.epochs(of: reader)
    #expect(epochs.flatMap(\.bytes) == Array(text.utf8))
    #expect(epochs.allSatisfy { $0.byteCount <= ReplayEpochGrouper.maximumBytes })
    #expect(epochs.allSatisfy { $0.offsetNanoseconds == nil })
  }
}
