import Testing

@testable import NMEA

/// The text writers that skip intermediate strings (`NMEADecimal.description`,
/// `RawSentence.lineBytes`, `SentenceBody.lineBytes`) against the straightforward string
/// building they replaced.
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
    // A count of fraction digits below zero writes none (and never traps).
    #expect(NMEADecimal(scaled: 5, fractionDigits: -1).description == "5.")
  }

  @Test func digitCountsMatchTheDecimalText() {
    var values: [UInt64] = [0, UInt64.max, UInt64.max - 1]
    var power: UInt64 = 1
    for _ in 0..<20 {
      values += [power - 1, power, power + 1]
      if power <= UInt64.max / 10 { power *= 10 } else { break }
    }
    for value in values {
      #expect(NMEADecimal.digitCount(value) == String(value).count, "\(value)")
    }
  }

  @Test func timesAndDatesPadTheirPartsToTwoDigits() {
    let seconds = NMEADecimal(scaled: 512, fractionDigits: 2, integerDigits: 2)
    let time = NMEATime(hours: 7, minutes: 0, seconds: seconds)
    #expect(time.description == "070005.12")
    #expect(NMEADate(day: 31, month: 1, year: 5).description == "310105")
    // Out of range parts keep their digits.
    #expect(NMEADate(day: 123, month: -1, year: 99).description == "1230-199")
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

  /// Lines of every sentence type: empty fields inside and at the end, present empty fields
  /// past the standard ones, a field past the known ones, signs, NMEA 4.10 signal and system
  /// IDs.
  static let sentenceLines = [
    "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
    "$GNGGA,171926.00,4404.14063,N,12118.85478,W,1,12,0.91,1147.2,M,-21.3,M,,*44",
    "$GPGGA,,,,,,0,,,,,,,,*66",
    "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,,EXTRA*31",
    // Longer than the room on the stack a line starts in (`SentenceWriter.lineRoom`).
    "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,,PAST-THE-96-BYTES-OF-ROOM-ON-THE-STACK,AND-MORE*2D",
    "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A",
    "$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,,,A,*5A",
    "$GNRMC,000000.50,A,4552.65403,S,17030.00668,E,0.025,,290220,,,A,V*0F",
    "$GNGSA,A,3,13,16,,,,,,,,,,,1.05,0.64,0.83,1*09",
    "$GPGSV,1,1,00*79",
    "$GLGSV,1,1,02,65,30,100,40,70,10,200,*66",
    "$GLGSV,3,3,10,87,14,030,17,88,62,024,,1*74",
    "$GNVTG,,T,,M,0.117,N,0.216,K,A*3F",
    "$GNGLL,4404.14066,N,12118.85481,W,171925.00,A,A*66",
    "$GNZDA,223745.00,11,07,2020,00,00*7A",
    "$GNGNS,074155.799,3114.8770,N,12135.2463,E,ANNA,05,1.3,156.9,8.3,,0000*52",
    "$GNGST,003958.00,43,,,,2.3,3.5,4.0*4A",
    "$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E",
  ]

  /// A sentence written straight into bytes from its fields is its line, and its raw sentence
  /// (the same writing, read back as fields) is the line's.
  @Test(arguments: sentenceLines) func sentenceBytesAreItsLine(_ line: String) throws {
    let raw = try RawSentence(parsing: line)
    func check<Body: SentenceBody>(_: Body.Type) throws {
      let body = try Body(raw)
      #expect(body.lineBytes == Array((line + "\r\n").utf8))
      #expect(body.raw == raw)
    }
    switch raw.type {
    case "GGA": try check(GGA.self)
    case "RMC": try check(RMC.self)
    case "GSA": try check(GSA.self)
    case "GSV": try check(GSV.self)
    case "VTG": try check(VTG.self)
    case "GLL": try check(GLL.self)
    case "ZDA": try check(ZDA.self)
    case "GNS": try check(GNS.self)
    case "GST": try check(GST.self)
    case "TXT": try check(TXT.self)
    default: Issue.record("no sentence type for \(line)")
    }
  }

  @Test func fieldValuesWriteTheirText() {
    let time = NMEATime(
      hours: 7, minutes: 5, seconds: NMEADecimal(scaled: 905, fractionDigits: 2, integerDigits: 2))
    #expect(time.description == "070509.05")
    #expect(NMEADate(day: 1, month: 12, year: 4).description == "011204")
    let coordinate = NMEACoordinate(
      degrees: 1, minutes: NMEADecimal(scaled: 5_000, fractionDigits: 3, integerDigits: 2),
      hemisphere: "W", degreeDigits: 3)
    #expect(coordinate.valueText == "00105.000" && coordinate.description == "00105.000,W")
  }
}
