import Testing

@testable import Replay

/// The time and date a replay reads from each sentence by position (`NMEASentenceTimes`), on
/// sentences written by hand: the field of each type, the decimals, and what has no time.
@Suite struct NMEASentenceTimesTests {
  static func time(_ sentence: String) -> LogTime? {
    NMEASentenceTimes.time(of: Array(sentence.utf8)[...])
  }

  static func nanoseconds(_ hours: Int64, _ minutes: Int64, _ seconds: Int64) -> Int64 {
    ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000
  }

  @Test func theTimeFieldOfEachTypeIsRead() {
    let gga = Self.time("$GPGGA,123519.20,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4D\r\n")
    #expect(gga?.nanoseconds == Self.nanoseconds(12, 35, 19) + 200_000_000)
    #expect(gga?.source == .nmeaPrimary)
    #expect(gga?.scale == .timeOfDay)
    // GLL has its time in field 5.
    let gll = Self.time("$GPGLL,4916.45,N,12311.12,W,225444,A*1D\r\n")
    #expect(gll?.nanoseconds == Self.nanoseconds(22, 54, 44))
    let zda = Self.time("$GPZDA,201530.00,04,07,2002,00,00*60\r\n")
    #expect(zda?.nanoseconds == Self.nanoseconds(20, 15, 30))
    #expect(zda?.source == .nmeaSecondary)
    // Nine decimals are nanoseconds; a sentence that ends after its time has it.
    #expect(Self.time("$GNRMC,000000.123456789")?.nanoseconds == 123_456_789)
  }

  @Test func whatIsNoTimeGivesNone() {
    #expect(Self.time("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00*74") == nil)
    #expect(Self.time("$GPRMC,,V,,,,,,,,,,N*53") == nil)
    #expect(Self.time("$GPGGA,12a519,4807.038,N*00") == nil)
    #expect(Self.time("$GPGGA,123519.0123456789,4807.038,N*00") == nil)
    #expect(Self.time("$GPGGA,246000,4807.038,N*00") == nil)
    // A GLL cut before its time field: the last field there is no time.
    #expect(Self.time("$GPGLL,4916.45,N*00") == nil)
    #expect(Self.time("!AIVDM,1,1,,A,15MgK45P3@G?fl0E`JbR0OwT0@MS,0*4E") == nil)
    #expect(Self.time("$GPGGA") == nil)
  }

  @Test func theDateOfRMCAndZDAIsRead() {
    let rmc = Array("$GPRMC,225446,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E*68".utf8)
    #expect(NMEASentenceTimes.date(of: rmc) == LogHeader.Day(year: 1994, month: 11, day: 19))
    let zda = Array("$GPZDA,201530.00,04,07,2002,00,00*60".utf8)
    #expect(NMEASentenceTimes.date(of: zda) == LogHeader.Day(year: 2002, month: 7, day: 4))
  }
}
