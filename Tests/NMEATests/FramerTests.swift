import Foundation
import MockGPSTestSupport
import NMEA
import Testing

@Suite struct FramerTests {
  static func logBytes() throws -> [UInt8] {
    Array(try Data(contentsOf: Fixtures.gpsdLogsDirectory.appendingPathComponent("neo-m8n.log")))
  }

  static func frameWhole(_ bytes: [UInt8]) -> [String] {
    var framer = Framer()
    return framer.append(bytes)
  }

  @Test func sameSentencesWhetherBytesArriveWholeOrOneByOne() throws {
    let bytes = try Self.logBytes()
    let whole = Self.frameWhole(bytes)
    var framer = Framer()
    var oneByOne: [String] = []
    for byte in bytes { oneByOne += framer.append([byte]) }
    #expect(whole.count > 100)
    #expect(oneByOne == whole)
  }

  @Test(arguments: [1, 7, 42]) func sameSentencesInRandomChunks(seed: UInt64) throws {
    let bytes = try Self.logBytes()
    var generator = SplitMix64(seed: seed)
    var framer = Framer()
    var chunked: [String] = []
    var index = 0
    while index < bytes.count {
      let size = Int(generator.next() % 97) + 1
      let end = min(bytes.count, index + size)
      chunked += framer.append(bytes[index..<end])
      index = end
    }
    #expect(chunked == Self.frameWhole(bytes))
  }

  @Test func recoversAfterGarbageAndCountsIt() {
    var framer = Framer()
    let input = Array("\u{0}\u{FF}junk$GPGG$GPZDA,1*55\r\nmore noise\n$GPZDA,1*55\n".utf8)
    #expect(framer.append(input) == ["$GPZDA,1*55", "$GPZDA,1*55"])
    // "\0 \xFF junk" (6 bytes after UTF-8 encoding of U+FF is 2 bytes), "$GPGG" (5), "more noise" (10)
    #expect(framer.discardedByteCount == 7 + 5 + 10)
  }

  @Test func dropsOverlongLines() {
    var framer = Framer(maximumLineLength: 20)
    let long = "$GPGSV," + String(repeating: "1", count: 40) + "\r\n$GPZDA,1*55\r\n"
    #expect(framer.append(Array(long.utf8)) == ["$GPZDA,1*55"])
  }
}
