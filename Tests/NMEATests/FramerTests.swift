import Foundation
import NMEA
import TestFixtures
import Testing

/// The framer on the bytes of every gpsd regression log, binary ones included: their UBX, SiRF
/// and GREIS frames are the garbage a framer meets on a real line.
@Suite struct FramerTests {
  static func logs() throws -> [(name: String, bytes: [UInt8])] {
    try Fixtures.gpsdLogs().map { ($0.lastPathComponent, Array(try Data(contentsOf: $0))) }
  }

  static func frameWhole(_ bytes: [UInt8]) -> [String] {
    var framer = Framer()
    return framer.append(bytes)
  }

  @Test func sameSentencesWhetherBytesArriveWholeOrOneByOne() throws {
    var total = 0
    for (name, bytes) in try Self.logs() {
      let whole = Self.frameWhole(bytes)
      var framer = Framer()
      var oneByOne: [String] = []
      for byte in bytes { oneByOne += framer.append(CollectionOfOne(byte)) }
      #expect(oneByOne == whole, "\(name)")
      total += whole.count
    }
    #expect(total > 25_000)
  }

  @Test(arguments: [1, 7, 42]) func sameSentencesInRandomChunks(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    for (name, bytes) in try Self.logs() {
      var framer = Framer()
      var chunked: [String] = []
      var index = 0
      while index < bytes.count {
        let size = Int(generator.next() % 97) + 1
        let end = min(bytes.count, index + size)
        chunked += framer.append(bytes[index..<end])
        index = end
      }
      #expect(chunked == Self.frameWhole(bytes), "\(name)")
    }
  }

  /// Every NMEA line of a log comes out of the framer, in order, unless it holds a second start
  /// delimiter or a CR (two sentences run together) or is longer than the framer keeps.
  @Test func everyWholeNMEALineOfEveryLogIsFramed() throws {
    let maximumLineLength = Framer().maximumLineLength
    for url in try Fixtures.gpsdLogs() {
      let framed = Self.frameWhole(Array(try Data(contentsOf: url)))
      let lines = try Fixtures.nmeaLines(of: url).filter { line in
        line.text.utf8.count <= maximumLineLength
          && !line.text.utf8.dropFirst().contains { "$!\r".utf8.contains($0) }
      }
      var position = framed.startIndex
      for line in lines {
        guard let found = framed[position...].firstIndex(of: line.text) else {
          Issue.record("\(url.lastPathComponent):\(line.number) not framed: \(line.text)")
          break
        }
        position = framed.index(after: found)
      }
    }
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
