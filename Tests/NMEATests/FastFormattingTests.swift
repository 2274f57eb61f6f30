import Testing

@testable import NMEA

/// The text writers that skip intermediate strings (`NMEADecimal.description`,
/// `RawSentence.lineBytes`) against the straightforward string building they replaced.
@Suite struct FastFormattingTests {
  /// The decimal's text built from `String(scaled)`, padded, split at the point.
  static func straightforward(_ decimal: NMEADecimal) -> String {
    var digits = String(decimal.scaled)
    let fraction = decimal.fractionDigits ?? 0
    let minimumLength = decimal.integerDigits + fraction
    if digits.count < minimumLength {
      digits = String(repeating: "0", count: minimumLength - digits.count) + digits
    }
    let sign = decimal.isNegative ? "-" : decimal.hasPlusSign ? "+" : ""
    guard let fractionDigits = decimal.fractionDigits else { return sign + digits }
    let split = digits.index(digits.endIndex, offsetBy: -fractionDigits)
    return sign + digits[..<split] + "." + digits[split...]
  }

  @Test func decimalsMatchTheStraightforwardText() {
    let values: [UInt64] = [0, 1, 5, 9, 10, 99, 100, 1234, 99_999, 1_000_000, UInt64.max]
    for scaled in values {
      for fraction in [nil, 0, 1, 2, 3, 6] as [Int?] {
        for integerDigits in 0...4 {
          for (negative, plus) in [(false, false), (true, false), (false, true)] {
            var decimal = NMEADecimal(
              scaled: scaled, fractionDigits: fraction, integerDigits: integerDigits,
              isNegative: negative)
            decimal.hasPlusSign = plus
            #expect(decimal.description == Self.straightforward(decimal))
          }
        }
      }
    }
    #expect(NMEADecimal(scaled: 5, fractionDigits: 2, integerDigits: 0).description == ".05")
    #expect(NMEADecimal(scaled: 12, fractionDigits: 0, integerDigits: 1).description == "12.")
    #expect(NMEADecimal("-0.0")?.description == "-0.0")
  }

  @Test func lineBytesAreTheLineText() throws {
    let lines = [
      "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
      "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26", "$GPTXT,01,01,02,ANTSTATUS=OK*3B",
    ]
    for line in lines {
      let sentence = try RawSentence(parsing: line)
      #expect(sentence.lineBytes == Array((line + "\r\n").utf8))
      #expect(sentence.description == line)
    }
    let unchecked = RawSentence(address: "GPZDA", fields: ["", "x"], hasChecksum: false)
    #expect(unchecked.line == "$GPZDA,,x\r\n")
    #expect(Checksum.hex(0x0A) == "0A" && Checksum.hex(0xF3) == "F3")
  }
}
