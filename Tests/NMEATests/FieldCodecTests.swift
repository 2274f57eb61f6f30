import NMEA
import TestFixtures
import Testing

@Suite struct NMEADecimalTests {
  @Test(arguments: ["0.9", "0.90", "00.9", "-12.3", "+00", "08", "137.000", ".5", "0545.4"])
  func keepsTheTextAsWritten(text: String) throws {
    let value = try #require(NMEADecimal(text))
    #expect(value.description == text)
  }

  @Test(arguments: ["", "-", "1.2.3", "1e5", "12a", "--1", "99999999999999999999"])
  func rejectsMalformedNumbers(text: String) {
    #expect(NMEADecimal(text) == nil)
  }

  @Test func roundsToTheRequestedDigits() {
    #expect(NMEADecimal(1.05, fractionDigits: 2).description == "1.05")
    #expect(NMEADecimal(-0.04, fractionDigits: 1).description == "0.0")
    #expect(NMEADecimal(7, fractionDigits: 0, integerDigits: 2).description == "07")
    #expect(NMEADecimal(integer: 5, width: 3).description == "005")
  }
}

@Suite struct NMEACoordinateTests {
  @Test func encodesAndParsesBackWithin2e7Degrees() throws {
    var generator = SplitMix64(seed: 2026)
    for _ in 0..<20_000 {
      let latitude = Double(generator.next() % 180_000_001) / 1e6 - 90
      let longitude = Double(generator.next() % 360_000_001) / 1e6 - 180
      let lat = NMEACoordinate(degrees: latitude, axis: .latitude, fractionDigits: 5)
      let lon = NMEACoordinate(degrees: longitude, axis: .longitude, fractionDigits: 5)
      let latBack = try #require(
        NMEACoordinate(value: lat.valueText, hemisphere: String(lat.hemisphere), axis: .latitude))
      let lonBack = try #require(
        NMEACoordinate(value: lon.valueText, hemisphere: String(lon.hemisphere), axis: .longitude))
      #expect(abs(latBack.degreesValue - latitude) <= 2e-7)
      #expect(abs(lonBack.degreesValue - longitude) <= 2e-7)
      // A round trip forgives `5160.00000` for 52°; the minutes themselves must stay below 60.
      #expect(lat.minutes.doubleValue < 60 && lon.minutes.doubleValue < 60, "\(lat) \(lon)")
    }
  }

  struct Encoding: CustomTestStringConvertible, Sendable {
    let degrees: Double
    let axis: NMEACoordinate.Axis
    let fractionDigits: Int
    let text: String
    var testDescription: String { "\(degrees) → \(text)" }
  }

  /// Values just below a whole degree, whose minutes round up to 60 and must carry.
  static let justBelowAWholeDegree: [Encoding] = [
    Encoding(degrees: 51.999_999_99, axis: .latitude, fractionDigits: 5, text: "5200.00000,N"),
    Encoding(degrees: -51.999_999_99, axis: .latitude, fractionDigits: 5, text: "5200.00000,S"),
    Encoding(degrees: 89.999_999_9, axis: .latitude, fractionDigits: 4, text: "9000.0000,N"),
    Encoding(degrees: 0.999_999_999, axis: .latitude, fractionDigits: 3, text: "0100.000,N"),
    Encoding(
      degrees: 179.999_999_999, axis: .longitude, fractionDigits: 5, text: "18000.00000,E"),
    Encoding(degrees: -9.999_999_99, axis: .longitude, fractionDigits: 5, text: "01000.00000,W"),
    Encoding(degrees: 12.999_99, axis: .longitude, fractionDigits: 2, text: "01300.00,E"),
    // Just short of the carry: 59.99999' stays.
    Encoding(degrees: 51.999_999_8, axis: .latitude, fractionDigits: 5, text: "5159.99999,N"),
  ]

  @Test(arguments: justBelowAWholeDegree) func encodesValuesJustBelowAWholeDegree(_ c: Encoding) {
    let coordinate = NMEACoordinate(
      degrees: c.degrees, axis: c.axis, fractionDigits: c.fractionDigits)
    #expect(coordinate.description == c.text)
  }

  @Test func minutesThatRoundUpCarryIntoTheDegrees() {
    let coordinate = NMEACoordinate(degrees: 47.9999999999, axis: .latitude, fractionDigits: 5)
    #expect(coordinate.description == "4800.00000,N")
    let west = NMEACoordinate(degrees: -3.5, axis: .longitude, fractionDigits: 5)
    #expect(west.description == "00330.00000,W")
  }

  @Test func placeholdersOutsideTheRangeParseButAreFlagged() throws {
    let placeholder = try #require(
      NMEACoordinate(value: "8960.0000", hemisphere: "N", axis: .latitude))
    #expect(!placeholder.isInRange)
    #expect(placeholder.valueText == "8960.0000")
  }

  @Test(arguments: [("4807.038", "E"), ("48x7.038", "N"), ("48", "N"), ("-4807.0", "N")])
  func rejectsMalformedCoordinates(value: String, hemisphere: String) {
    #expect(NMEACoordinate(value: value, hemisphere: hemisphere, axis: .latitude) == nil)
  }
}

@Suite struct NMEATimeTests {
  @Test func parsesAndWritesTimesAndDates() throws {
    let time = try #require(NMEATime("235959.95"))
    #expect(time.secondsOfDay == 86_399.95)
    #expect(time.description == "235959.95")
    #expect(NMEADate("290226")?.description == "290226")
  }

  @Test(arguments: ["240000", "126000", "12", "1200a0", "120061.5"])
  func rejectsMalformedTimes(text: String) {
    #expect(NMEATime(text) == nil)
  }

  @Test(arguments: ["001326", "321226", "2208-1", "12122"])
  func rejectsMalformedDates(text: String) {
    #expect(NMEADate(text) == nil)
  }
}

@Suite struct ChecksumTextTests {
  @Test(arguments: ["+3", "-3", " 3", "3", "3G", "0x"])
  func aChecksumIsTwoHexadecimalDigitsAndNothingElse(text: String) {
    #expect(Checksum.parseHex(Substring(text)) == nil)
  }

  @Test func eitherCaseIsRead() {
    #expect(Checksum.parseHex("7a") == 0x7A)
    #expect(Checksum.parseHex("7A") == 0x7A)
  }
}
