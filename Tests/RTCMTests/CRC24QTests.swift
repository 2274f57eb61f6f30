import GNSSMeasurements
import Testing

@testable import RTCM

/// CRC-24Q against the catalogue's check value and a frame from the RTCM standard.
@Suite struct CRC24QTests {
  /// The check value of CRC-24/LTE-A (the same polynomial and initial value) over "123456789".
  @Test func checkValueOfTheCatalogue() {
    #expect(CRC24Q.checksum(Array("123456789".utf8)) == 0xCD_E703)
  }

  /// The example 1005 frame of RTCM 10403.3 ends with the CRC of what precedes it.
  @Test func theStandardsExampleFrameCarriesItsCRC() {
    let frame = RTCMFrameTests.standardExample
    let crc = CRC24Q.checksum(frame.dropLast(3))
    #expect(frame.suffix(3) == [UInt8(crc >> 16), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
  }

  @Test func emptyInputGivesZero() {
    #expect(CRC24Q.checksum([]) == 0)
  }
}
