import Testing

@testable import RTCM

/// 1005 and 1006: the standard's example decoded and re-encoded to the same bytes.
@Suite struct StationReferenceTests {
  @Test func theStandardsExampleDecodesToItsStation() throws {
    let frame = try RTCMFrame(parsing: RTCMFrameTests.standardExample)
    let station = try StationReference(payload: frame.payload)
    #expect(station.stationID == 2003)
    #expect(abs(station.x - 1_114_104.5999) < 1e-6)
    #expect(abs(station.y - -4_850_729.7108) < 1e-6)
    #expect(abs(station.z - 3_975_521.4643) < 1e-6)
    #expect(station.servesGPS && !station.servesGLONASS && !station.servesGalileo)
    #expect(station.antennaHeightMeters == nil)
    #expect(try RTCMFrame(payload: station.payload()).bytes == RTCMFrameTests.standardExample)
  }

  @Test func message1006CarriesTheAntennaHeight() throws {
    let station = StationReference(
      stationID: 4095, x: -2_694_045.1234, y: -4_293_642.5678, z: 3_857_878.9012,
      antennaHeightMeters: 1.5432, itrfYear: 20, servesGLONASS: true)
    let payload = try station.payload()
    #expect(payload.count == 21)
    let decoded = try StationReference(payload: payload)
    #expect(decoded.messageNumber == 1006)
    #expect(decoded.antennaHeightMeters.map { abs($0 - 1.5432) < 1e-9 } == true)
    #expect(decoded.itrfYear == 20 && decoded.servesGLONASS)
    #expect(abs(decoded.y - station.y) < 5e-5)
  }

  @Test func aCoordinateBeyondTheFieldIsRefused() {
    let station = StationReference(stationID: 1, x: 2e7, y: 0, z: 0)
    #expect(throws: RTCMError.valueOutOfRange(name: "ECEF-X", value: 2e7)) {
      _ = try station.payload()
    }
  }
}
