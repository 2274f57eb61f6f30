import NMEA
import Testing

/// `SentenceSpec.fieldNumber(of:)`: where a property's field is, counted as a parsed sentence's
/// fields are, so that code rewriting a sentence in place reads the numbers from the table that
/// parses it.
@Suite struct SentenceSpecFieldNumberTests {
  @Test func numbersCountEveryFieldBeforeFromOneAfterTheAddress() {
    // $GPGGA,time,lat,N,lon,E,quality,used,hdop,alt,M,sep,M,age,station
    #expect(GGA.spec.fieldNumber(of: \.time) == 1)
    #expect(GGA.spec.fieldNumber(of: \.latitude) == 2)
    #expect(GGA.spec.fieldNumber(of: \.longitude) == 4)
    #expect(GGA.spec.fieldNumber(of: \.quality) == 6)
    #expect(GGA.spec.fieldNumber(of: \.altitude) == 9)
    #expect(GGA.spec.fieldNumber(of: \.geoidSeparation) == 11)
    #expect(GGA.spec.fieldNumber(of: \.dgpsStation) == 14)
    #expect(RMC.spec.fieldNumber(of: \.date) == 9)
    #expect(GLL.spec.fieldNumber(of: \.time) == 5)
  }

  @Test func numbersAgreeWithAParsedSentence() throws {
    let line = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    let raw = try RawSentence(parsing: line)
    let fields = [""] + raw.fields
    let number = { (keyPath: PartialKeyPath<RMC>) in RMC.spec.fieldNumber(of: keyPath) ?? 0 }
    #expect(fields[number(\.time)] == "123519")
    #expect(fields[number(\.status)] == "A")
    #expect(fields[number(\.latitude)] == "4807.038")
    #expect(fields[number(\.longitude) + 1] == "E")
    #expect(fields[number(\.speedKnots)] == "022.4")
    #expect(fields[number(\.date)] == "230394")
  }

  @Test func aPropertyNoFieldHoldsHasNoNumber() {
    #expect(GGA.spec.fieldNumber(of: \.talker) == nil)
    #expect(GGA.spec.fieldNumber(of: \.extraFields) == nil)
  }

  @Test func aFieldAfterAGroupOfVaryingWidthHasNoNumber() {
    #expect(GSV.spec.fieldNumber(of: \.satellitesInView) == 3)
    #expect(GSV.spec.fieldNumber(of: \.signalID) == nil)
  }
}
