import Geodesy
import NMEA
import Receiver
import Simulation
import Testing

/// `Fix.correction` on the wire: GGA's quality and the mode indicator of RMC, GLL and VTG.
@Suite struct EpochEncoderCorrectionTests {
  static let time = UTCInstant(year: 2024, month: 7, day: 1, hour: 12)
  static let position = GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300)

  struct Case: CustomTestStringConvertible, Sendable {
    let correction: Fix.Correction
    let quality: Int
    let mode: String
    var testDescription: String { "\(correction) → quality \(quality), mode \(mode)" }
  }

  static func sentences(_ correction: Fix.Correction, mode: Fix.Mode = .threeDimensional)
    -> [RawSentence]
  {
    var fix = Scene(motion: FixedPosition(position)).fix(at: time)
    fix.correction = correction
    fix.mode = mode
    return EpochEncoder().sentences(for: fix)
  }

  @Test(arguments: [
    Case(correction: .none, quality: 1, mode: "A"),
    Case(correction: .differential, quality: 2, mode: "D"),
    Case(correction: .rtkFloat, quality: 5, mode: "F"),
    Case(correction: .rtkFixed, quality: 4, mode: "R"),
  ])
  func aCorrectionSetsTheQualityAndEveryModeIndicator(_ row: Case) throws {
    let sentences = Self.sentences(row.correction)
    let gga = try GGA(try #require(sentences.first { $0.address == "GPGGA" }))
    let rmc = try RMC(try #require(sentences.first { $0.address == "GPRMC" }))
    let gll = try GLL(try #require(sentences.first { $0.address == "GPGLL" }))
    let vtg = try VTG(try #require(sentences.first { $0.address == "GPVTG" }))
    let gsa = try GSA(try #require(sentences.first { $0.address == "GPGSA" }))
    #expect(gga.quality?.integerValue == row.quality)
    #expect(rmc.mode == row.mode)
    #expect(gll.mode == row.mode)
    #expect(vtg.mode == row.mode)
    #expect(rmc.status == "A")
    #expect(gsa.fixType?.integerValue == 3)
  }

  @Test(arguments: [Fix.Correction.differential, .rtkFloat, .rtkFixed])
  func withoutAFixACorrectionIsNotReported(_ correction: Fix.Correction) throws {
    let sentences = Self.sentences(correction, mode: .noFix)
    let gga = try GGA(try #require(sentences.first { $0.address == "GPGGA" }))
    let rmc = try RMC(try #require(sentences.first { $0.address == "GPRMC" }))
    #expect(gga.quality?.integerValue == 0)
    #expect(rmc.mode == "N")
    #expect(rmc.status == "V")
  }

  @Test func a2DFixKeepsItsCorrection() throws {
    let sentences = Self.sentences(.differential, mode: .twoDimensional)
    let gga = try GGA(try #require(sentences.first { $0.address == "GPGGA" }))
    let gsa = try GSA(try #require(sentences.first { $0.address == "GPGSA" }))
    #expect(gga.quality?.integerValue == 2)
    #expect(gsa.fixType?.integerValue == 2)
  }
}
