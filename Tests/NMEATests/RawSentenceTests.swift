import NMEA
import Testing

@Suite struct RawSentenceTests {
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    let line: String
    let expected: String
    var testDescription: String { expected }
  }

  static let malformed: [ErrorCase] = [
    ErrorCase(line: "", expected: "empty sentence"),
    ErrorCase(
      line: "GPGGA,1*00", expected: "sentence must start with '$' or '!', found 'GPGGA,1*'"),
    ErrorCase(line: "$GPGGA,123519", expected: "missing checksum '*hh'"),
    ErrorCase(
      line: "$GPGGA,123519*4", expected: "malformed checksum '4' (expected two hex digits)"),
    ErrorCase(
      line: "$GPGGA,123519*ZZ", expected: "malformed checksum 'ZZ' (expected two hex digits)"),
    ErrorCase(line: "$GPZDA,1*00", expected: "bad checksum 00 (computed 55)"),
    ErrorCase(line: "$GPGGA,12$GPRMC*00", expected: "invalid character 0x24 at offset 9"),
    ErrorCase(line: "$GPGGA,1\u{7}*00", expected: "invalid character 0x07 at offset 8"),
    ErrorCase(line: "$gpgga,1*6B", expected: "invalid address 'gpgga'"),
  ]

  @Test(arguments: malformed) func rejectsMalformedLinesWithAPreciseError(_ c: ErrorCase) {
    #expect(throws: (any Error).self) { try RawSentence(parsing: c.line) }
    do {
      _ = try RawSentence(parsing: c.line)
    } catch {
      #expect(error.description == c.expected)
    }
  }

  @Test func parsesAddressFieldsAndTalker() throws {
    let raw = try RawSentence(parsing: "$GNGSA,A,3,13,16,,,,,,,,,,,1.05,0.64,0.83,1*09\r\n")
    #expect(raw.address == "GNGSA")
    #expect(raw.talker == "GN")
    #expect(raw.type == "GSA")
    #expect(raw.fields.count == 18)
    #expect(raw.description == "$GNGSA,A,3,13,16,,,,,,,,,,,1.05,0.64,0.83,1*09")
  }

  @Test func proprietaryAddressesHaveTalkerP() throws {
    let raw = try RawSentence(parsing: "$PMTK001,604,3*32")
    #expect(raw.talker == "P")
    #expect(raw.type == "MTK001")
  }

  @Test func acceptsAMissingChecksumOnlyWhenAskedTo() throws {
    let line = "$GPZDA,222449,25,10,2010,+00,00"
    #expect(throws: SentenceError.missingChecksum) { try RawSentence(parsing: line) }
    let raw = try RawSentence(parsing: line, requireChecksum: false)
    #expect(raw.description == line)
  }

  @Test func lineEndsInCRLF() {
    let raw = RawSentence(address: "GPZDA", fields: ["1"])
    #expect(raw.line == "$GPZDA,1*55\r\n")
  }
}
