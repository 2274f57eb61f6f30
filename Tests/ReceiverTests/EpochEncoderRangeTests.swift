import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

/// Every field the encoder writes stays in its legal range, whatever the fix holds.
@Suite struct EpochEncoderRangeTests {
  static let time = EpochEncoderTests.time

  static func fix(latitude: Double = 51.477928, longitude: Double = -0.001545) throws -> Fix {
    try EpochEncoderTests.fix(latitude: latitude, longitude: longitude)
  }

  static func moving(speed: Double, course: Double) throws -> Fix {
    var fix = try fix()
    fix.speedMetersPerSecond = speed
    fix.courseDegrees = course
    return fix
  }

  /// The first sentence of a type (without talker) in an epoch.
  static func sentence(_ type: String, in sentences: [RawSentence]) throws -> RawSentence {
    try #require(sentences.first { $0.type == type })
  }

  struct CourseCase: CustomTestStringConvertible, Sendable {
    let degrees: Double
    let text: String
    var testDescription: String { "\(degrees)° → \(text)" }
  }

  @Test(arguments: [
    CourseCase(degrees: 359.996, text: "0.00"), CourseCase(degrees: -10, text: "350.00"),
    CourseCase(degrees: 360, text: "0.00"), CourseCase(degrees: 720.5, text: "0.50"),
    CourseCase(degrees: -0.001, text: "0.00"), CourseCase(degrees: -0.006, text: "359.99"),
    CourseCase(degrees: 45, text: "45.00"), CourseCase(degrees: 359.994, text: "359.99"),
  ])
  func coursesAreWrittenFrom0ToBelow360(_ course: CourseCase) throws {
    let sentences = EpochEncoder().sentences(for: try Self.moving(speed: 5, course: course.degrees))
    let rmc = try RMC(try Self.sentence("RMC", in: sentences))
    let vtg = try VTG(try Self.sentence("VTG", in: sentences))
    #expect(rmc.course?.description == course.text)
    #expect(vtg.courseTrue?.description == course.text)
  }

  @Test func aNegativeSpeedIsWrittenAsItsMagnitudeWithTheCourseReversed() throws {
    let sentences = EpochEncoder().sentences(for: try Self.moving(speed: -5, course: 10))
    let rmc = try RMC(try Self.sentence("RMC", in: sentences))
    let vtg = try VTG(try Self.sentence("VTG", in: sentences))
    #expect(rmc.speedKnots?.description == "9.719")
    #expect(rmc.course?.description == "190.00")
    #expect(vtg.speedKnots?.description == "9.719")
    #expect(vtg.speedKilometersPerHour?.description == "18.000")
    #expect(vtg.courseTrue?.description == "190.00")
    let west = EpochEncoder().sentences(for: try Self.moving(speed: -5, course: 270))
    #expect(try RMC(try Self.sentence("RMC", in: west)).course?.description == "90.00")
  }

  struct SatelliteCase: CustomTestStringConvertible, Sendable {
    let elevation: Double
    let azimuth: Double
    var snr: Int? = 40
    var id = 7
    /// The GSV fields `elevation,azimuth,snr`, or nil when the satellite must not be listed.
    let text: String?
    var testDescription: String { "el \(elevation) az \(azimuth) snr \(snr as Any) id \(id)" }
  }

  @Test(arguments: [
    SatelliteCase(elevation: 45, azimuth: 359.6, text: "45,000,40"),
    SatelliteCase(elevation: 45, azimuth: -10, text: "45,350,40"),
    SatelliteCase(elevation: 45, azimuth: 720.2, text: "45,000,40"),
    SatelliteCase(elevation: 90.4, azimuth: 10, text: "90,010,40"),
    SatelliteCase(elevation: 120, azimuth: 10, text: "90,010,40"),
    SatelliteCase(elevation: 0, azimuth: 10, text: "00,010,40"),
    SatelliteCase(elevation: -0.4, azimuth: 10, text: nil),
    SatelliteCase(elevation: -5, azimuth: 10, text: nil),
    SatelliteCase(elevation: -.infinity, azimuth: 10, text: nil),
    SatelliteCase(elevation: .nan, azimuth: 10, text: ",010,40"),
    SatelliteCase(elevation: .infinity, azimuth: 10, text: ",010,40"),
    SatelliteCase(elevation: 45, azimuth: .nan, text: "45,,40"),
    SatelliteCase(elevation: 45, azimuth: -.infinity, text: "45,,40"),
    SatelliteCase(elevation: 45, azimuth: 3_600_000_010.2, text: "45,010,40"),
    SatelliteCase(elevation: 45, azimuth: 10, snr: 120, text: "45,010,99"),
    SatelliteCase(elevation: 45, azimuth: 10, snr: -3, text: "45,010,00"),
    SatelliteCase(elevation: 45, azimuth: 10, snr: nil, text: "45,010,"),
    SatelliteCase(elevation: 45, azimuth: 10, id: 0, text: nil),
    SatelliteCase(elevation: 45, azimuth: 10, id: 100, text: nil),
  ])
  func gsvFieldsStayInRangeAndSatellitesBelowTheHorizonAreNotInView(_ row: SatelliteCase)
    throws
  {
    var fix = try Self.fix()
    fix.satellites = [
      SatelliteInView(
        constellation: .gps, id: row.id, elevation: row.elevation, azimuth: row.azimuth,
        snr: row.snr, isUsed: false)
    ]
    let sentences = EpochEncoder().sentences(for: fix)
    let gsv = try Self.sentence("GSV", in: sentences)
    #expect(try GSV(gsv).raw == gsv)
    if let text = row.text {
      let id = row.id < 10 ? "0\(row.id)" : "\(row.id)"
      #expect(
        gsv.fields == ["1", "1", "01", id]
          + text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    } else {
      #expect(gsv.fields == ["1", "1", "00"])
    }
  }

  @Test func aFractionalAzimuthIsRoundedBeforeItIsReduced() throws {
    // 359.5 rounds to 360, which is north: 000, never 360.
    var fix = try Self.fix()
    fix.satellites[0].azimuth = 359.5
    let gsv = try GSV(try Self.sentence("GSV", in: EpochEncoder().sentences(for: fix)))
    #expect(gsv.satellites.first?.azimuth?.description == "000")
  }

  /// A position with coordinates `GeodeticPosition` refuses to build; the encoder must not trust
  /// the type to keep them out.
  static func unchecked(latitude: Double, longitude: Double, altitude: Double) throws
    -> GeodeticPosition
  {
    try #require(
      MemoryLayout<GeodeticPosition>.size == MemoryLayout<(Double, Double, Double)>.size)
    let position = unsafeBitCast((latitude, longitude, altitude), to: GeodeticPosition.self)
    try #require(position.latitude.bitPattern == latitude.bitPattern)
    return position
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func nonFiniteValuesLeaveTheirFieldsEmptyAndEverySentenceParses(_ value: Double) throws {
    var fix = try Self.fix()
    fix.position.altitudeMeters = value
    fix.geoidSeparationMeters = value
    fix.speedMetersPerSecond = value
    fix.courseDegrees = value
    fix.dop = DilutionOfPrecision(position: value, horizontal: value, vertical: value, time: value)
    for index in fix.satellites.indices {
      fix.satellites[index].azimuth = value
    }
    fix.satellites[0].elevation = value
    let sentences = EpochEncoder().sentences(for: fix)
    for sentence in sentences {
      let message = try NMEAMessage(parsing: sentence.description)
      #expect(message.raw == sentence)
    }
    let gga = try GGA(try Self.sentence("GGA", in: sentences))
    #expect(gga.latitude != nil && gga.quality?.integerValue == 1)
    #expect(gga.altitude == nil && gga.geoidSeparation == nil && gga.hdop == nil)
    let rmc = try RMC(try Self.sentence("RMC", in: sentences))
    #expect(rmc.speedKnots == nil && rmc.course == nil)
    let vtg = try VTG(try Self.sentence("VTG", in: sentences))
    #expect(vtg.speedKnots == nil && vtg.speedKilometersPerHour == nil && vtg.courseTrue == nil)
    let gsa = try GSA(try Self.sentence("GSA", in: sentences))
    #expect(gsa.pdop == nil && gsa.hdop == nil && gsa.vdop == nil)
    let pages = try sentences.filter { $0.type == "GSV" }.map { try GSV($0) }
    #expect(pages.flatMap(\.satellites).allSatisfy { $0.azimuth == nil })
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aNonFinitePositionIsReportedAsNoFix(_ value: Double) throws {
    var fix = try Self.fix()
    fix.speedMetersPerSecond = 3
    for (latitude, longitude) in [(value, 1.0), (1.0, value)] {
      fix.position = try Self.unchecked(latitude: latitude, longitude: longitude, altitude: 46)
      let sentences = EpochEncoder().sentences(for: fix)
      for sentence in sentences {
        #expect(try NMEAMessage(parsing: sentence.description).raw == sentence)
      }
      let rmc = try RMC(try Self.sentence("RMC", in: sentences))
      #expect(rmc.status == "V" && rmc.mode == "N" && rmc.latitude == nil && rmc.speedKnots == nil)
      let gga = try GGA(try Self.sentence("GGA", in: sentences))
      #expect(gga.quality?.integerValue == 0 && gga.latitude == nil && gga.altitude == nil)
      #expect(gga.satellitesUsed?.integerValue == 0)
      let gsa = try GSA(try Self.sentence("GSA", in: sentences))
      #expect(gsa.fixType?.integerValue == 1 && gsa.satelliteIDs.allSatisfy { $0 == nil })
      let gll = try GLL(try Self.sentence("GLL", in: sentences))
      #expect(gll.status == "V" && gll.mode == "N" && gll.longitude == nil)
    }
  }

  struct DOPCase: CustomTestStringConvertible, Sendable {
    let value: Double
    let text: String?
    var testDescription: String { "\(value) → \(text ?? "empty")" }
  }

  @Test(arguments: [
    DOPCase(value: 150, text: "99.99"), DOPCase(value: 99.996, text: "99.99"),
    DOPCase(value: 99.99, text: "99.99"), DOPCase(value: 0.984, text: "0.98"),
    DOPCase(value: -1, text: nil),
  ])
  func dopsAreCappedAt99_99AsReceiversDo(_ row: DOPCase) throws {
    var fix = try Self.fix()
    fix.dop = DilutionOfPrecision(
      position: row.value, horizontal: row.value, vertical: row.value, time: row.value)
    let sentences = EpochEncoder().sentences(for: fix)
    let gsa = try GSA(try Self.sentence("GSA", in: sentences))
    let gga = try GGA(try Self.sentence("GGA", in: sentences))
    for dop in [gsa.pdop, gsa.hdop, gsa.vdop, gga.hdop] {
      #expect(dop?.description == row.text)
    }
  }

  struct HeightCase: CustomTestStringConvertible, Sendable {
    let altitude: Double
    let geoidSeparation: Double
    let altitudeText: String
    let geoidSeparationText: String
    var testDescription: String { "alt \(altitude) geoid \(geoidSeparation)" }
  }

  @Test(arguments: [
    HeightCase(
      altitude: 46.04, geoidSeparation: 45.96, altitudeText: "46.0", geoidSeparationText: "46.0"),
    HeightCase(
      altitude: 250_000, geoidSeparation: 5000, altitudeText: "100000.0",
      geoidSeparationText: "999.9"),
    HeightCase(
      altitude: -5000, geoidSeparation: -5000, altitudeText: "-1000.0",
      geoidSeparationText: "-999.9"),
    HeightCase(
      altitude: 1e300, geoidSeparation: -1e300, altitudeText: "100000.0",
      geoidSeparationText: "-999.9"),
  ])
  func altitudeAndGeoidSeparationAreClampedToWhatGGACanCarry(_ row: HeightCase) throws {
    var fix = try Self.fix()
    fix.position.altitudeMeters = row.altitude
    fix.geoidSeparationMeters = row.geoidSeparation
    let gga = try GGA(try Self.sentence("GGA", in: EpochEncoder().sentences(for: fix)))
    #expect(gga.altitude?.description == row.altitudeText)
    #expect(gga.geoidSeparation?.description == row.geoidSeparationText)
  }

  @Test func speedsAreCappedAt5000MetersPerSecond() throws {
    for speed in [5000.0, 1e12, -1e300] {
      let sentences = EpochEncoder().sentences(for: try Self.moving(speed: speed, course: 0))
      let vtg = try VTG(try Self.sentence("VTG", in: sentences))
      #expect(vtg.speedKnots?.description == "9719.222")
      #expect(vtg.speedKilometersPerHour?.description == "18000.000")
    }
  }

  @Test func extremeFiniteValuesKeepEverySentenceWithin82Bytes() throws {
    var fix = try Self.fix(latitude: -89.99999, longitude: -179.99999)
    fix.position.altitudeMeters = 1e300
    fix.geoidSeparationMeters = -1e300
    fix.speedMetersPerSecond = -1e300
    fix.courseDegrees = -1e300
    fix.dop = DilutionOfPrecision(position: 1e300, horizontal: 1e300, vertical: 1e300, time: 1)
    fix.satellites = (1...40).map {
      SatelliteInView(
        constellation: .gps, id: $0, elevation: 1e300, azimuth: -1e300, snr: .max, isUsed: true)
    }
    let sentences = EpochEncoder().sentences(for: fix)
    for sentence in sentences {
      #expect(sentence.line.utf8.count <= 82, "\(sentence)")
      #expect(try NMEAMessage(parsing: sentence.description).raw == sentence)
    }
    let pages = try sentences.filter { $0.type == "GSV" }.map { try GSV($0) }
    #expect(pages.count == 9)
    #expect(pages.allSatisfy { $0.messageCount?.integerValue == 9 })
    #expect(pages.allSatisfy { $0.satellitesInView?.integerValue == 36 })
    #expect(pages.flatMap(\.satellites).count == 36)
  }

  struct CoordinateCase: CustomTestStringConvertible, Sendable {
    let latitude: Double
    let longitude: Double
    let latitudeText: String
    let longitudeText: String
    var testDescription: String { "\(latitude), \(longitude)" }
  }

  /// Exact text, because a round trip within 2e-7° also accepts `5159.60000` for 52°.
  @Test(arguments: [
    CoordinateCase(
      latitude: 51.99999999, longitude: 0.99999999, latitudeText: "5200.00000,N",
      longitudeText: "00100.00000,E"),
    CoordinateCase(
      latitude: -51.99999999, longitude: -179.99999999, latitudeText: "5200.00000,S",
      longitudeText: "18000.00000,W"),
    CoordinateCase(
      latitude: 51.999999, longitude: -0.0000001, latitudeText: "5159.99994,N",
      longitudeText: "00000.00001,W"),
    CoordinateCase(
      latitude: -0.00000001, longitude: -0.00000001, latitudeText: "0000.00000,N",
      longitudeText: "00000.00000,E"),
    CoordinateCase(
      latitude: 89.99999999, longitude: 12.5, latitudeText: "9000.00000,N",
      longitudeText: "01230.00000,E"),
  ])
  func coordinatesJustBelowAWholeDegreeCarryIntoTheDegrees(_ row: CoordinateCase) throws {
    let sentences = EpochEncoder().sentences(
      for: try Self.fix(latitude: row.latitude, longitude: row.longitude))
    let gga = try GGA(try Self.sentence("GGA", in: sentences))
    let rmc = try RMC(try Self.sentence("RMC", in: sentences))
    let gll = try GLL(try Self.sentence("GLL", in: sentences))
    for latitude in [gga.latitude, rmc.latitude, gll.latitude] {
      #expect(latitude?.description == row.latitudeText)
    }
    for longitude in [gga.longitude, rmc.longitude, gll.longitude] {
      #expect(longitude?.description == row.longitudeText)
    }
  }
}
