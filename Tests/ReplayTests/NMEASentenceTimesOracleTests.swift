import Foundation
import Simulation
import TestFixtures
import Testing

@testable import Replay

/// `NMEASentenceTimes.time`, which reads a sentence by index for speed, against a reading of
/// the same rule with strings: every sentence of two of gpsd's logs, and each of them cut and
/// with a byte changed to a delimiter, a digit or noise (seeded), give the same time or none,
/// read from a slice of a larger array as a log's packets are.
@Suite struct NMEASentenceTimesOracleTests {
  /// The rule, read plainly: the fields after the first comma up to the first `*`, CR or LF,
  /// split at commas; the type's field, or the last when there are fewer; `hhmmss` with an
  /// optional `.` and up to nine decimals.
  static func reference(_ bytes: [UInt8]) -> Int64? {
    guard bytes.count > 7, bytes[0] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: ",") else {
      return nil
    }
    let fieldNumber: Int
    switch String(decoding: bytes[3..<6], as: UTF8.self) {
    case "RMC", "GGA", "GNS", "GBS", "ZDA", "GST": fieldNumber = 1
    case "GLL": fieldNumber = 5
    default: return nil
    }
    guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else { return nil }
    let afterComma = bytes[(comma + 1)...]
    let body = afterComma.prefix { ![UInt8(ascii: "*"), 0x0D, 0x0A].contains($0) }
    let fields = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    let text = Array(fields[min(fieldNumber, fields.count) - 1])
    guard text.count >= 6, text[..<6].allSatisfy({ (0x30...0x39).contains($0) }),
      let hours = Int64(String(decoding: text[0..<2], as: UTF8.self)),
      let minutes = Int64(String(decoding: text[2..<4], as: UTF8.self)),
      let seconds = Int64(String(decoding: text[4..<6], as: UTF8.self)),
      hours < 24, minutes < 60, seconds < 61
    else { return nil }
    var nanoseconds = (hours * 3600 + minutes * 60 + seconds) * 1_000_000_000
    if text.count > 6 {
      let decimals = text[7...]
      guard text[6] == UInt8(ascii: "."), decimals.count <= 9,
        decimals.allSatisfy({ (0x30...0x39).contains($0) })
      else { return nil }
      let padded = String(decoding: decimals, as: UTF8.self).padding(
        toLength: 9, withPad: "0", startingAt: 0)
      nanoseconds += Int64(padded) ?? 0
    }
    return nanoseconds
  }

  @Test(arguments: ["bt451.log", "ublox-zed-f9p_hpg1.11.log", "rst39.log"])
  func theIndexedReadingAgreesWithTheStringOne(_ log: String) throws {
    let text = try Data(contentsOf: Fixtures.gpsdLog(log))
    let sentences = text.split(separator: 0x0A).map { Array($0) + [0x0A] }
      .filter { $0.first == UInt8(ascii: "$") }
    try #require(sentences.count > 100)
    var generator = FaultRandomNumberGenerator(seed: 24)
    let replacements: [UInt8] = Array(",*\r\n.09A$".utf8) + [0x00, 0xFF]
    var timed = 0
    for sentence in sentences {
      var variants = [sentence, Array(sentence.prefix(Int(generator.next() % 24)))]
      for _ in 0..<4 {
        var changed = sentence
        let index = Int(generator.next() % UInt64(changed.count))
        changed[index] = replacements[Int(generator.next() % UInt64(replacements.count))]
        variants.append(changed)
      }
      for variant in variants {
        // A slice that starts past its array's start, as a packet of a log's chunk does.
        let chunk = Array("$GPGGA,".utf8) + variant
        let read = NMEASentenceTimes.time(of: chunk[7...])
        #expect(
          read?.nanoseconds == Self.reference(variant),
          "\(String(decoding: variant, as: UTF8.self))")
        if read != nil { timed += 1 }
      }
    }
    #expect(timed > sentences.count / 4, "\(timed) timed of \(sentences.count)")
  }
}
