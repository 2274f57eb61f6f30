import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

@Suite struct ReceiverProfileTests {
  @Test func theCatalogueListsTheFiveProfilesInOrder() {
    #expect(ReceiverProfile.all.map(\.name) == ["generic", "ublox-m8", "ublox-f9p", "mtk", "sirf"])
    #expect(ReceiverProfile.validNames == "generic, ublox-m8, ublox-f9p, mtk, sirf")
    #expect(ReceiverProfile.named("sirf")?.commandSet == .sirf)
    #expect(ReceiverProfile.named("garmin") == nil)
  }

  @Test func powerUpSentencesAreTheRealBannersWithValidChecksums() throws {
    #expect(
      ReceiverProfile.ubloxM8.powerUpSentences.first
        == "$GNTXT,01,01,02,u-blox AG - www.u-blox.com*4E")
    // SPG 3.01's banner line, its checksum computed by hand.
    #expect(ReceiverProfile.ubloxM8.powerUpSentences.contains("$GNTXT,01,01,02,PROTVER=18.00*11"))
    // An MT3339 at power-up: its name first, then "system startup" (PMTK010 message 001).
    #expect(ReceiverProfile.mtk.powerUpSentences == ["$PMTK011,MTKGPS*08", "$PMTK010,001*2E"])
    for profile in ReceiverProfile.all {
      for line in profile.powerUpSentences {
        #expect(throws: Never.self) { try RawSentence(parsing: line) }
      }
    }
    #expect(ReceiverProfile.generic.powerUpSentences.isEmpty)
  }

  @Test func aSiRFAt4800BaudSendsGSVEveryFifthEpoch() {
    let slow = ReceiverProfile.sirf.defaultOutput(baud: 4800)
    #expect((0..<10).filter { slow.sends(nmea: "GSV", epochIndex: $0) }.count == 2)
    let fast = ReceiverProfile.sirf.defaultOutput(baud: 38400)
    #expect((0..<10).allSatisfy { fast.sends(nmea: "GSV", epochIndex: $0) })
    #expect(
      ReceiverProfile.ubloxM8.defaultOutput(baud: 4800) == ReceiverProfile.ubloxM8.defaultOutput)
    #expect(ReceiverProfile.ubloxF9P.defaultOutput.ubx.isEmpty)
  }

  @Test func theGenericProfileWritesWhatEpochEncoderAlwaysWrote() throws {
    let fix = Scene(
      motion: FixedPosition(
        try GeodeticPosition(latitude: 51.5, longitude: -0.1, altitudeMeters: 40))
    )
    .fix(at: UTCInstant(year: 2026, month: 11, day: 30, hour: 12))
    let profiled = ReceiverEncoder(profile: .generic).sentences(for: fix, epochIndex: 3)
    #expect(profiled == EpochEncoder().sentences(for: fix))
  }

  /// GST from a known geometry: σ latitude and longitude are the north and east DOPs times the
  /// user range error, the ellipse's axes bracket them, and its orientation follows the cofactor.
  @Test func gstComesFromTheDOPsTimesTheUserRangeError() throws {
    var fix = Scene(
      motion: FixedPosition(try GeodeticPosition(latitude: 10, longitude: 20, altitudeMeters: 5))
    )
    .fix(at: UTCInstant(year: 2026, month: 11, day: 30, hour: 1))
    fix.dop = DilutionOfPrecision(
      position: 2.5, horizontal: 1.5, vertical: 2.0, time: 1, east: 1.2, north: 0.9,
      eastNorthCofactor: 0.3)
    var encoder = EpochEncoder(profile: .ubloxF9P)
    encoder.enabledSentences = ["GST"]
    let gst = try GST(try #require(encoder.sentences(for: fix).first))
    let range = encoder.dialect.userRangeErrorMeters
    #expect(gst.rangeRMS?.doubleValue == range)
    #expect(gst.latitudeDeviation?.doubleValue == (0.9 * range * 10).rounded() / 10)
    #expect(gst.longitudeDeviation?.doubleValue == (1.2 * range * 10).rounded() / 10)
    #expect(gst.altitudeDeviation?.doubleValue == (2.0 * range * 10).rounded() / 10)
    // Eigenvalues of [[1.44, 0.3], [0.3, 0.81]]: 1.560 and 0.690 (numpy.linalg.eigh);
    // the major axis's eigenvector points 68.2° clockwise from north.
    #expect(abs((gst.semiMajorDeviation?.doubleValue ?? 0) - 1.2490 * range) <= 0.05)
    #expect(abs((gst.semiMinorDeviation?.doubleValue ?? 0) - 0.8307 * range) <= 0.05)
    #expect(abs((gst.orientation?.doubleValue ?? 0) - 68.2) <= 0.1)
  }

  /// The extremes `EpochEncoderRangeTests` feeds the generic receiver, in every dialect with every
  /// sentence type on: each line still fits NMEA's 82 bytes, except MediaTek's GGA, whose six
  /// decimals of minutes and three of altitude and separation overflow it at extremes as the
  /// chip's own output does (its capture's GGA is 79 bytes at an ordinary 102 m altitude), and
  /// u-blox's proprietary PUBX,00, which is longer than 82 bytes even on the chip (the u-blox 8 /
  /// M8 receiver description's example is 111).
  @Test(arguments: ReceiverProfile.all.map(\.name))
  func extremeFiniteValuesFit82BytesInEveryDialect(_ name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    var fix = Scene(
      motion: FixedPosition(
        try GeodeticPosition(latitude: -89.99999, longitude: -179.99999, altitudeMeters: 0))
    ).fix(at: UTCInstant(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59))
    fix.position.altitudeMeters = 1e300
    fix.geoidSeparationMeters = -1e300
    fix.speedMetersPerSecond = -1e300
    fix.dop = DilutionOfPrecision(position: 1e300, horizontal: 1e300, vertical: 1e300, time: 1)
    var encoder = EpochEncoder(profile: profile)
    encoder.constellations = Set(Constellation.allCases)
    encoder.enabledSentences = Set(profile.dialect.sentenceOrder)
    for sentence in encoder.sentences(for: fix)
    where !(name == "mtk" && sentence.type == "GGA") && sentence.talker != "P" {
      #expect(sentence.line.utf8.count <= 82, "\(sentence)")
    }
  }
}
