import NMEA
import Testing

/// PUBX,04 reads and writes the example of the u-blox 8 / M8 receiver description (with its
/// trailing empty field) and an M8's capture (without) unchanged; PUBX,00 and PUBX,04 do not
/// take each other's lines.
@Suite struct PUBXTimeTests {
  /// The description's example with its checksum corrected: it prints `*3C`, the sum of its
  /// text is `5D`.
  static let example = "$PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43,*5D"
  /// An M8 in 2019 (a public capture's line).
  static let capture = "$PUBX,04,035231.00,140919,532351.00,2070,18,541289,165.421,08*1A"

  @Test(arguments: [example, capture])
  func theLinesRoundTrip(_ line: String) throws {
    #expect(try PUBXTime(parsing: line).raw.description == line)
  }

  @Test func theCaptureReadsItsFields() throws {
    let pubx = try PUBXTime(parsing: Self.capture)
    #expect(pubx.messageID == "04")
    #expect(pubx.time?.description == "035231.00")
    #expect(pubx.date?.description == "140919")
    #expect(pubx.utcTimeOfWeek?.description == "532351.00")
    #expect(pubx.utcWeek?.integerValue == 2070)
    #expect(pubx.leapSeconds == "18")
    #expect(pubx.clockBias?.integerValue == 541_289)
    #expect(pubx.clockDrift?.doubleValue == 165.421)
    #expect(pubx.timePulseGranularity?.integerValue == 8)
    #expect(PUBXTime.spec.timeFieldNumber == 2)
    #expect(try PUBXTime(parsing: Self.example).leapSeconds == "15D")
  }

  @Test func aPUBXMessageTakesOnlyItsOwnID() throws {
    #expect(throws: SentenceError.self) { try PUBXTime(parsing: PUBXPositionTests.example) }
    #expect(throws: SentenceError.self) { try PUBXPosition(parsing: Self.capture) }
  }
}
