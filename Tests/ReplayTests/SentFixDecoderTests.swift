import Geodesy
import Simulation
import Testing
import UBX

@testable import Replay

/// The fix a receiver reports, read back from what it sent (a replay's and a passthrough's
/// `status` and `subscribe`). The sentences are NMEA's textbook examples, their values worked
/// out by hand from the text (4807.038 N is 48 + 7.038 / 60 degrees).
@Suite struct SentFixDecoderTests {
  static let wire = UTCInstant(year: 2026, month: 12, day: 2, hour: 12)
  static let rmc = "$GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*44"
  static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
  static let gsa = "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39"
  static let gsv = "$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45*75"

  /// The fix `decoder` reads in `packets`, required.
  static func decode(_ decoder: inout SentFixDecoder, _ packets: [[UInt8]]) throws -> Fix {
    let fix = decoder.fix(of: packets, wireTime: wire)
    return try #require(fix)
  }

  static func packets(_ lines: String...) -> [[UInt8]] {
    lines.map { Array(($0 + "\r\n").utf8) }
  }

  @Test func anNMEAEpochIsTheFixItReports() throws {
    var decoder = SentFixDecoder()
    let fix = try Self.decode(&decoder, Self.packets(Self.rmc, Self.gga, Self.gsa, Self.gsv))
    #expect(fix.time == UTCInstant(year: 1994, month: 3, day: 23, hour: 12, minute: 35, second: 19))
    #expect(abs(fix.position.latitude - 48.1173) < 1e-9)
    #expect(abs(fix.position.longitude - (11 + 31.0 / 60)) < 1e-9)
    #expect(fix.position.altitudeMeters == 545.4)
    #expect(fix.geoidSeparationMeters == 46.9)
    #expect(fix.mode == .threeDimensional)
    #expect(fix.correction == Fix.Correction.none)
    #expect(abs(fix.speedMetersPerSecond - 22.4 * 1852 / 3600) < 1e-9)
    #expect(fix.courseDegrees == 84.4)
    #expect(fix.dop.map { [$0.position, $0.horizontal, $0.vertical] } == [2.5, 1.3, 2.1])
    #expect(fix.satellites.map(\.id) == [1, 2, 12, 14])
    #expect(fix.satellitesUsed.map(\.id) == [12], "04, 05, 09 and 24 are used but not in view")
    #expect(fix.satellites.first?.snr == 46)
  }

  /// Receivers send GSV every few epochs: the sky of the last one stands (as gpsd keeps it),
  /// its satellites used as the epoch's own GSA says.
  @Test func anEpochWithoutGSVKeepsTheLastSky() throws {
    var decoder = SentFixDecoder()
    _ = try Self.decode(&decoder, Self.packets(Self.rmc, Self.gga, Self.gsa, Self.gsv))
    let next = try Self.decode(
      &decoder, Self.packets(Self.gga, "$GPGSA,A,3,01,02,,,,,,,,,,,2.5,1.3,2.1*37"))
    #expect(next.satellites.map(\.id) == [1, 2, 12, 14])
    #expect(next.satellitesUsed.map(\.id) == [1, 2])
  }

  @Test func aGGAWithoutDateTakesTheLastOneMetThenTheWireDate() throws {
    var fresh = SentFixDecoder()
    let alone = try Self.decode(&fresh, Self.packets(Self.gga))
    #expect(
      alone.time == UTCInstant(year: 2026, month: 12, day: 2, hour: 12, minute: 35, second: 19))
    var decoder = SentFixDecoder()
    _ = decoder.fix(of: Self.packets(Self.rmc), wireTime: Self.wire)
    let next = try Self.decode(&decoder, Self.packets(Self.gga))
    #expect(next.time.civil.year == 1994)
  }

  @Test func anEpochWithoutPositionIsNoFixWhereTheLastWas() throws {
    var decoder = SentFixDecoder()
    let lost = Self.packets("$GPGGA,123520.00,,,,,0,00,99.99,,,,,,*61")
    #expect(decoder.fix(of: lost, wireTime: Self.wire) == nil, "no position ever met")
    _ = decoder.fix(of: Self.packets(Self.gga), wireTime: Self.wire)
    let fix = try Self.decode(&decoder, lost)
    #expect(fix.mode == .noFix)
    #expect(abs(fix.position.latitude - 48.1173) < 1e-9)
  }

  @Test func glonassIsNumberedFrom65AndRTKQualitiesAreCorrections() throws {
    var decoder = SentFixDecoder()
    let fix = try Self.decode(
      &decoder,
      Self.packets(
        "$GPGGA,000001.00,4807.038,N,01131.000,E,4,12,0.5,545.4,M,46.9,M,1.0,0042*4E",
        "$GLGSV,1,1,02,65,30,100,40,70,10,200,*66",
        "$GNGSA,A,3,65,70,,,,,,,,,,,1.9,1.0,1.6,2*38"))
    #expect(fix.correction == .rtkFixed)
    #expect(fix.satellites.map(\.constellation) == [.glonass, .glonass])
    #expect(fix.satellites.map(\.id) == [1, 6])
    #expect(fix.satellitesUsed.count == 2)
    #expect(fix.satellites.last?.snr == nil, "not tracked")
  }

  @Test func navPVTIsReadWholeAndWinsOverTheSentences() throws {
    var writer = UBXPayloadWriter()
    writer.u4(0)
    writer.u2(2026)
    for byte: UInt8 in [12, 2, 8, 30, 15, 0x07] { writer.u1(byte) }
    writer.u4(20)
    writer.i4(250_000_000)
    writer.u1(3)
    writer.u1(0x80 | 0x02 | 0x01)  // carrSoln fixed, diffSoln, gnssFixOK
    writer.u1(0)
    writer.u1(18)
    writer.i4(-1_234_567)  // lon
    writer.i4(515_000_000)  // lat
    writer.i4(95_000)  // height above the ellipsoid
    writer.i4(48_000)  // above mean sea level
    writer.u4(10)
    writer.u4(10)
    writer.i4(0)
    writer.i4(0)
    writer.i4(-500)  // velD: climbing 0.5 m/s
    writer.i4(12_000)  // gSpeed
    writer.i4(9_000_000)  // headMot 90°
    writer.zeros(8)
    writer.u2(135)  // pDOP
    writer.zeros(14)
    let pvt = UBXFrame(.navPVT, payload: writer.bytes).bytes
    var decoder = SentFixDecoder()
    let fix = try Self.decode(&decoder, Self.packets(Self.gga) + [pvt])
    #expect(
      fix.time
        == UTCInstant(year: 2026, month: 12, day: 2, hour: 8, minute: 30, second: 15).adding(
          nanoseconds: 250_000_000))
    #expect(abs(fix.position.latitude - 51.5) < 1e-9)
    #expect(abs(fix.position.longitude + 0.1234567) < 1e-9)
    #expect(fix.position.altitudeMeters == 48)
    #expect(fix.geoidSeparationMeters == 47)
    #expect(fix.correction == .rtkFixed)
    #expect(fix.speedMetersPerSecond == 12 && abs(fix.courseDegrees - 90) < 1e-9)
    #expect(fix.climbMetersPerSecond == 0.5)
  }

  /// A NAV-PVT whose date and time are flagged valid but whose year is beyond the instants
  /// there are (a corrupt log, a hostile receiver) is read without its time, and its year is
  /// not taken as the date of the GGAs that follow: it was a trap (arithmetic overflow).
  @Test(arguments: [0, 1000, 2300, 65_535])
  func aNAVPVTWithAnImpossibleYearIsNotADate(year: Int) throws {
    var writer = UBXPayloadWriter()
    writer.u4(0)
    writer.u2(UInt16(year))
    for byte: UInt8 in [12, 2, 8, 30, 15, 0x03] { writer.u1(byte) }
    writer.zeros(92 - 12)
    let pvt = UBXFrame(.navPVT, payload: writer.bytes).bytes
    var decoder = SentFixDecoder()
    let fix = try Self.decode(&decoder, Self.packets(Self.gga) + [pvt])
    #expect(fix.time == UTCInstant(year: 2026, month: 12, day: 2, hour: 12, minute: 35, second: 19))
    let next = try Self.decode(&decoder, Self.packets(Self.gga))
    #expect(next.time == fix.time, "the wire's date, not the year \(year)")
  }
}
