import Foundation
import MockGPSTestSupport
import NMEA
import Testing

/// Corrupted real lines never crash the parser: each either parses or throws a SentenceError,
/// and whatever parses re-encodes to a line that parses again.
@Suite struct MutationTests {
  static let replacements: [UInt8] = Array("$*,.-+0123456789AENSVWZ \u{7F}".utf8) + [0, 0xFF]

  @Test func singleByteCorruptionsOfRealLinesAreRejectedOrRoundTrip() throws {
    let lines = try Fixtures.lines(
      of: Fixtures.gpsdLogsDirectory.appendingPathComponent("ublox-zed-f9p-nmea.log")
    )
    .map(\.text).filter { $0.hasPrefix("$") }.prefix(40)
    var generator = SplitMix64(seed: 99)
    var parsed = 0
    var rejected = 0
    for line in lines {
      let bytes = Array(line.utf8)
      for _ in 0..<250 {
        var mutated = bytes
        let position = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0:
          mutated[position] =
            Self.replacements[Int(generator.next() % UInt64(Self.replacements.count))]
        case 1: mutated.remove(at: position)
        default: mutated.insert(Self.replacements[Int(generator.next() % 10)], at: position)
        }
        let text = String(decoding: mutated, as: UTF8.self)
        guard let message = try? NMEAMessage(parsing: text, requireChecksum: false) else {
          rejected += 1
          continue
        }
        parsed += 1
        #expect(throws: Never.self, "\(text) re-encodes to an invalid line") {
          try NMEAMessage(parsing: message.raw.description, requireChecksum: false)
        }
      }
    }
    #expect(parsed + rejected == lines.count * 250)
    #expect(rejected > parsed)  // most corruptions break the checksum
  }
}
