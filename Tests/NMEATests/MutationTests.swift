import Foundation
import NMEA
import TestFixtures
import Testing

/// Corrupted real lines never crash the parser. A line whose checksum does not hold (checked here
/// independently of `Checksum`) is always rejected, with the checksum the test computes; whatever
/// parses re-encodes to a line that parses back to the same message.
///
/// Every NMEA line of every gpsd regression log (`Fixtures.nmeaLines(of:)`) gets
/// `mutationsPerLine` random single-byte corruptions.
@Suite struct MutationTests {
  static let replacements: [UInt8] = Array("$*,.-+0123456789AENSVWZ \u{7F}".utf8) + [0, 0xFF]
  static let mutationsPerLine = 5

  @Test func singleByteCorruptionsOfRealLinesAreRejectedOrRoundTrip() throws {
    let lines = try Fixtures.gpsdLogs().flatMap { try Fixtures.nmeaLines(of: $0).map(\.text) }
    var generator = SplitMix64(seed: 99)
    var parsed = 0
    var rejected = 0
    var checksumFailures = 0
    for line in lines {
      let bytes = Array(line.utf8)
      for _ in 0..<Self.mutationsPerLine {
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
        let verdict = Self.checksum(of: Array(text.utf8))
        if verdict != .absent && verdict != .holds { checksumFailures += 1 }
        let message: NMEAMessage
        do {
          message = try NMEAMessage(parsing: text, requireChecksum: false)
        } catch .badChecksum(let expected, let found) {
          rejected += 1
          #expect(verdict == .differs(computed: expected, found: found), "\(text)")
          continue
        } catch {
          rejected += 1
          continue
        }
        parsed += 1
        if verdict != .absent && verdict != .holds {
          Issue.record("\(text) parsed although its checksum does not hold (\(verdict))")
        }
        let again = try? NMEAMessage(parsing: message.raw.description, requireChecksum: false)
        #expect(again == message, "\(text) re-encodes to \(message.raw) that parses differently")
      }
    }
    #expect(lines.count > 25_000)
    // The mutations do reach the checksum.
    #expect(checksumFailures > lines.count * Self.mutationsPerLine / 2)
    #expect(rejected >= checksumFailures)
    #expect(parsed > 0)
  }

  /// What the checksum of a line says, computed without the module under test.
  enum ChecksumVerdict: Equatable {
    /// No `*`: a line without a checksum.
    case absent
    case holds
    /// `*` not followed by exactly two hexadecimal digits.
    case malformed
    case differs(computed: UInt8, found: UInt8)
  }

  static func checksum(of line: [UInt8]) -> ChecksumVerdict {
    guard let star = line.lastIndex(of: UInt8(ascii: "*")) else { return .absent }
    let hexDigits = Array("0123456789ABCDEFabcdef".utf8)
    let text = line[(star + 1)...]
    guard star > 0, text.count == 2, text.allSatisfy(hexDigits.contains),
      let found = UInt8(String(decoding: text, as: UTF8.self), radix: 16)
    else { return .malformed }
    var computed: UInt8 = 0
    for byte in line[1..<star] { computed ^= byte }
    return computed == found ? .holds : .differs(computed: computed, found: found)
  }
}
