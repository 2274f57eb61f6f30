import Foundation
import Geodesy
import Simulation
import TestFixtures
import Testing
import UBX
import Wire

@testable import Passthrough

/// Heights, geoid separations and motions that follow an override in every sentence and frame
/// gpsd reads them from, and the sentences gpsd accepts that a strict parser would not.
@Suite(.blocking) struct OverrideHeightAndMotionTests {
  typealias H = PassthroughHarness
  typealias R = ReviewRegressionTests
  static let replaceParis = PositionOverride.replace(R.paris, replacesAltitude: true)
  /// EGM96's separation at Paris, as the rewriter writes it.
  static let parisSeparation = EGM96Geoid().separationMeters(latitude: 48.85, longitude: 2.35)

  static func fields(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).prefix { $0 != "*" }
      .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  static func forward(_ bytes: [UInt8], _ override: PositionOverride = replaceParis) -> [UInt8] {
    H.forward(bytes, override).output
  }

  @Test func aLowerCaseChecksumIsWrittenRightInLowerCase() {
    let body = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    let output = String(decoding: Self.forward(R.sentence(body) { _ in "4a" }), as: UTF8.self)
    let rewritten = output.dropFirst().prefix { $0 != "*" }
    let sum = rewritten.utf8.reduce(UInt8(0), ^)
    #expect(output.hasSuffix("*" + String(format: "%02x", sum) + "\r\n"), "\(output)")
  }

  @Test func lowerCaseHemispheresAreReadAndKeptExceptSouthAndWest() {
    let body = "GPGGA,123519,4807.038,n,01131.000,e,1,08,0.9,545.4,M,46.9,M,,"
    let paris = Self.fields(Self.forward(R.sentence(body)))
    #expect(Array(paris[2...5]) == ["4851.000", "n", "00221.000", "e"])
    let sydney = Self.fields(
      Self.forward(R.sentence(body), .replace(H.sydney, replacesAltitude: false)))
    #expect(Array(sydney[2...5]) == ["3351.408", "S", "15112.918", "e"])
  }

  @Test func ggaAltitudeAndSeparationFollowTheTarget() {
    let body = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    let replaced = Self.fields(Self.forward(R.sentence(body)))
    #expect(replaced[9] == "35.0")
    #expect(replaced[11] == String(format: "%.1f", Self.parisSeparation))
    let kept = Self.fields(
      Self.forward(R.sentence(body), .replace(R.paris, replacesAltitude: false)))
    #expect(kept[9] == "545.4")
    #expect(kept[11] == String(format: "%.1f", Self.parisSeparation))
  }

  @Test func aFixAtZeroZeroKeepsItsAltitude() {
    let sentence = R.sentence("GPGGA,123519,0000.000,N,00000.000,E,1,08,0.9,545.4,M,46.9,M,,")
    #expect(Self.forward(sentence) == sentence)
  }

  @Test func ellipsoidHeightsOfPASHRAndPUBXAreTheNewAltitudePlusTheSeparation() {
    let ashtech = R.sentence(
      "PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+000.0,2.2,2.2,0.0,1.0,BQ00"
    )
    let ublox = R.sentence(
      "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
    )
    let height = 35 + Self.parisSeparation
    #expect(Self.fields(Self.forward(ashtech))[9] == String(format: "%06.2f", height))
    #expect(Self.fields(Self.forward(ublox))[7] == String(format: "%.3f", height))
  }

  @Test func routeMotionIsWrittenIntoPASHRPUBXAndPSTI() {
    let motion = StraightLineMotion(
      start: H.sydney, startTime: H.now, speedMetersPerSecond: 12.5, courseDegrees: 71)
    let ashtech = Self.fields(
      Self.forward(
        R.sentence(
          "PASHR,POS,0,03,183530.00,2037.76012,N,08704.07373,W,058.48,,359.4,000.0,+001.5,2.2,2.2,0.0,1.0,BQ00"
        ), .route(motion)))
    #expect(Array(ashtech[11...13]) == ["71.0", "045.0", "+000.0"])
    let ublox = Self.fields(
      Self.forward(
        R.sentence(
          "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,-0.150,,0.92,1.19,0.77,9,0,0"
        ), .route(motion)))
    #expect(Array(ublox[11...13]) == ["45.000", "71.00", "0.000"])
    let skytraq = Self.fields(
      Self.forward(
        R.sentence(
          "PSTI,030,232712.000,A,4404.1237962,N,12118.8472460,W,1132.560,0.00,0.03,0.00,280316,A,0.0,0.0"
        ), .route(motion)))
    #expect(skytraq[8] == "1132.560")
    let east = 12.5 * sin(71 * Double.pi / 180)
    let north = 12.5 * cos(71 * Double.pi / 180)
    #expect(
      Array(skytraq[9...11]) == [
        String(format: "%.2f", east), String(format: "%.2f", north), "0.00",
      ])
  }

  @Test func navSolHeightIsTheNewAltitudePlusTheSeparationAtTheTarget() throws {
    let solutions = H.packets(try H.log("ublox-neo-m8t.log")).filter {
      $0.kind == .ubx && $0.problem == nil && $0.bytes[2] == 0x01 && $0.bytes[3] == 0x06
        && $0.bytes[6 + 10] != 0
    }.prefix(5)
    #expect(!solutions.isEmpty)
    let output = Self.forward(Array(solutions.map(\.bytes).joined()))
    for packet in H.packets(output) {
      let frame = try #require(UBXFrameBytes(Array(packet.bytes)))
      let point = try #require(
        EarthCenteredConversion.geodetic(
          x: Double(frame.i4(12)) / 100, y: Double(frame.i4(16)) / 100,
          z: Double(frame.i4(20)) / 100))
      #expect(abs(point.height - (35 + Self.parisSeparation)) < 0.02, "\(point)")
    }
  }

  @Test func navPVTHeightIsItsAltitudePlusTheSeparationAtTheTarget() throws {
    let frames = H.packets(try H.log("ublox-zed-f9p-hp.log")).filter {
      $0.kind == .ubx && $0.problem == nil && $0.bytes[2] == 0x01 && $0.bytes[3] == 0x07
        && $0.bytes[6 + 20] != 0
    }.prefix(5)
    #expect(!frames.isEmpty)
    for replacesAltitude in [true, false] {
      let output = Self.forward(
        Array(frames.map(\.bytes).joined()), .replace(R.paris, replacesAltitude: replacesAltitude))
      for (input, packet) in zip(frames, H.packets(output)) {
        let (before, after) = (
          try #require(UBXFrameBytes(Array(input.bytes))),
          try #require(UBXFrameBytes(Array(packet.bytes)))
        )
        #expect(after.i4(36) == (replacesAltitude ? 35_000 : before.i4(36)))
        #expect(after.i4(32) - after.i4(36) == Int64((Self.parisSeparation * 1000).rounded()))
      }
    }
  }

  @Test func aBogusHeaderLeavesEverythingElseByteForByteAcrossChunks() {
    var bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x28, 0x23]
    for second in 0..<200 {
      bytes += R.sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1,\(second)")
    }
    let others = bytes
    bytes += R.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    for sizes in [[4096], [1], [7, 300, 13]] {
      let (output, statistics) = H.forward(bytes, Self.replaceParis, chunkSizes: sizes)
      #expect(output.prefix(others.count) == others[...])
      #expect(!String(decoding: output, as: UTF8.self).contains("4807.038"))
      #expect(statistics.sentencesRewritten == 1)
    }
  }
}
