import Geodesy
import TestFixtures
import Testing
import Wire

@testable import Passthrough

/// Regressions found in review: real positions or altitudes that reach gpsd (or any client)
/// under an override that hides them. Each feeds a few hand-made sentences to a rewriter.
@Suite(.blocking) struct ReviewRegressionTests {
  typealias H = PassthroughHarness
  static let paris = GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 35)

  static func sentence(_ body: String, checksum: (UInt8) -> String = { String(format: "%02X", $0) })
    -> [UInt8]
  {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    return Array("$\(body)*\(checksum(sum))\r\n".utf8)
  }

  static func forward(_ bytes: [UInt8]) -> String {
    var rewriter = PassthroughRewriter(override: .replace(paris, replacesAltitude: true))
    return String(decoding: rewriter.forward(bytes, at: H.now), as: UTF8.self)
  }

  /// gpsd 3.22's lexer takes only upper-case hex digits as a checksum: a sentence whose
  /// checksum is written (or garbled by one bit) in lower case is accepted unchecked, so its
  /// position must be rewritten, not passed as "unparsed".
  @Test func lowerCaseWrongChecksumDoesNotLeakTheRealPosition() {
    let body = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"  // checksum 0x47
    let output = Self.forward(Self.sentence(body) { _ in "4a" })
    #expect(!output.contains("4807.038"), "\(output)")
  }

  /// gpsd reads the altitude of `$PSTI,030` (SkyTraq) as altMSL: under `replace` with an
  /// altitude it must be replaced as GGA's is.
  @Test func pstiAltitudeIsReplaced() {
    let body =
      "PSTI,030,232712.000,A,4404.1237962,N,12118.8472460,W,1132.560,0.00,0.03,0.00,280316,A,0.0,0.0"
    let output = Self.forward(Self.sentence(body))
    #expect(!output.contains("1132.560"), "\(output)")
  }

  /// A `B5 62` header whose length is long but legal makes the splitter hold up to 9 KiB; when
  /// its checksum fails, the NMEA sentences it swallowed must not reach the client unrewritten.
  @Test func sentencesSwallowedByABogusUBXHeaderAreNotLeaked() {
    var bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x28, 0x23]
    for second in 0..<200 {
      bytes += Self.sentence(
        "GPGGA,12\(second / 60 + 10)\(second % 60 + 10),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
      )
    }
    let output = Self.forward(bytes)
    #expect(!output.contains("4807.038"))
  }
}
