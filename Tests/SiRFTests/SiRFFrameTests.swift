import SiRF
import Testing

/// SiRF binary frames against the bytes gpsd's SiRF driver writes (`driver_sirf.c`, whose
/// checksums it computes the same way) and against damaged input.
@Suite struct SiRFFrameTests {
  /// gpsd's MID 132, poll software version, with its checksum filled in.
  static let versionProbe: [UInt8] = [0xA0, 0xA2, 0x00, 0x02, 0x84, 0x00, 0x00, 0x84, 0xB0, 0xB3]
  /// gpsd's MID 166 enabling MID 52 once a second, checksum as gpsd writes it.
  static let enableMID52: [UInt8] = [
    0xA0, 0xA2, 0x00, 0x08, 0xA6, 0x00, 0x34, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xDB, 0xB0,
    0xB3,
  ]

  @Test func gpsdsFramesParseAndEncodeAlike() throws {
    for bytes in [Self.versionProbe, Self.enableMID52] {
      let frame = try SiRFFrame(parsing: bytes)
      #expect(frame.bytes == bytes)
    }
    #expect(try SiRFFrame(parsing: Self.versionProbe).id == 132)
    #expect(try SiRFFrame(parsing: Self.enableMID52).fields == [0x00, 0x34, 0x01, 0, 0, 0, 0])
  }

  @Test func checksumKeepsFifteenBits() {
    let payload = [UInt8](repeating: 0xFF, count: 200)  // 51,000 = 0xC738
    #expect(SiRFFrame.checksum(of: payload) == 0x4738)
  }

  @Test func damagedFramesAreRejectedWithTheirReason() {
    #expect(throws: SiRFError.badStart(found: [0xA0, 0xA3])) {
      try SiRFFrame(parsing: [0xA0, 0xA3, 0, 0])
    }
    #expect(throws: SiRFError.truncated(found: 7, needed: 10)) {
      try SiRFFrame(parsing: Self.versionProbe.prefix(7))
    }
    #expect(throws: SiRFError.tooLong(0x7FFF)) {
      try SiRFFrame(parsing: [0xA0, 0xA2, 0x7F, 0xFF])
    }
    var badChecksum = Self.versionProbe
    badChecksum[7] = 0x85
    #expect(throws: SiRFError.badChecksum(expected: 0x84, found: 0x85)) {
      try SiRFFrame(parsing: badChecksum)
    }
    var badEnd = Self.versionProbe
    badEnd[9] = 0xB4
    #expect(throws: SiRFError.badEnd(found: [0xB0, 0xB4])) { try SiRFFrame(parsing: badEnd) }
  }

  @Test func errorsNameWhatWasFoundAndExpected() {
    #expect(
      SiRFError.badChecksum(expected: 0x84, found: 0x85).description
        == "SiRF checksum '0085' where the payload gives '0084'")
    #expect(
      SiRFError.badStart(found: [0xA0, 0xA3]).description
        == "SiRF frame starts with 'a0 a3', expected 'a0 a2'")
  }

  @Test func softwareVersionHasTheLengthsGpsdChecks() {
    let frame = SiRFReplies.softwareVersion("GSD4e_4.0.4", customer: "")
    // gpsd takes the new form when the payload is buf[1] + buf[2] + 3 bytes long.
    #expect(frame.payload.count == Int(frame.payload[1]) + Int(frame.payload[2]) + 3)
    #expect(Array(frame.payload[3...]) == Array("GSD4e_4.0.4\u{0}\u{0}".utf8))
  }

  @Test func navigationParametersAreSixtyFiveBytesAndFollowModeControl() throws {
    var parameters = SiRFNavigationParameters()
    // gpsd's MID 136: degraded mode off, altitude hold auto, track smoothing on.
    let modeControl = SiRFFrame(
      id: 136, fields: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01])
    try parameters.apply(modeControl: modeControl)
    let frame = parameters.frame
    #expect(frame.payload.count == 65)
    #expect(frame.payload[9] == 0)  // degraded mode
    #expect(frame.payload[12] == 1)  // track smoothing
    #expect(throws: SiRFError.self) {
      try parameters.apply(modeControl: SiRFFrame(id: 136, fields: [0, 0]))
    }
  }
}
