import Geodesy
import Receiver
import Simulation
import Testing

@testable import Control

@Suite struct FixReportSkyTests {
  static let satellites = [
    SatelliteInView(
      constellation: .gps, id: 5, elevation: 45.04, azimuth: 123.06, snr: 40, isUsed: true),
    SatelliteInView(
      constellation: .glonass, id: 3, elevation: 10, azimuth: 300, snr: nil, isUsed: false),
    SatelliteInView(
      constellation: .galileo, id: 7, elevation: 60, azimuth: 10, snr: 33, isUsed: true),
  ]

  static func fix(mode: Fix.Mode = .threeDimensional) -> Fix {
    Fix(
      time: UTCInstant(year: 2026, month: 3, day: 1, hour: 12), mode: mode,
      position: GeodeticPosition(known: 46.05, 14.5, altitudeMeters: 300),
      geoidSeparationMeters: 47, speedMetersPerSecond: 0, courseDegrees: 0,
      satellites: satellites, dop: nil)
  }

  @Test func nmea23ListsGPSAndGLONASSUnderGPAsItsGSVDoes() {
    #expect(
      FixReport.sky(of: Self.fix(), dialect: .generic).json
        == #"[{"prn":5,"gnss":"GP","system":"gps","az":123.1,"el":45,"snr":40,"used":true},"#
        + #"{"prn":67,"gnss":"GP","system":"glonass","az":300,"el":10,"snr":null,"used":false}]"#)
  }

  @Test func nmea410ListsEverySystemUnderItsOwnTalker() {
    let sky = FixReport.sky(of: Self.fix(), dialect: ReceiverProfile.ubloxM8.dialect).json
    #expect(sky.contains(#"{"prn":67,"gnss":"GL","system":"glonass""#))
    #expect(sky.contains(#"{"prn":7,"gnss":"GA","system":"galileo""#))
  }

  @Test func noSatelliteIsUsedWithoutAFix() {
    #expect(!FixReport.sky(of: Self.fix(mode: .noFix), dialect: .generic).json.contains("true"))
  }

  @Test func latenessHasTenthsOfMilliseconds() {
    #expect(FixReport.lateness(nanoseconds: 1_234_567).json == "1.2")
    #expect(FixReport.lateness(nanoseconds: -5).json == "0")
  }
}
