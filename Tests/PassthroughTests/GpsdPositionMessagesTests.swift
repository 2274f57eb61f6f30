import Foundation
import Geodesy
import TestFixtures
import Testing
import UBX
import Wire

@testable import Passthrough

/// Every message gpsd 3.22 takes a position from is rewritten by `replace`, proved on real
/// samples from the corpus read back by pyubx2/pynmeagps.
///
/// The list, from gpsd 3.22's source:
/// - `drivers/driver_nmea0183.c`, the handlers that set `LATLON_SET`: `processGGA`,
///   `processGLL`, `processGNS`, `processRMC`, `processPASHR` (`$PASHR,POS`), `processPGRMF`,
///   `processPSTI030` (`$PSTI,030`); (`$PUBX,00` is in the table as ignored.)
/// - `drivers/driver_ubx.c`, the decoders that set `LATLON_SET` or `ECEF_SET`:
///   `ubx_msg_nav_pvt` (NAV-PVT), `ubx_msg_nav_posllh` (NAV-POSLLH), `ubx_msg_nav_hpposllh`
///   (NAV-HPPOSLLH), `ubx_msg_nav_posecef` (NAV-POSECEF), `ubx_msg_nav_hpposecef`
///   (NAV-HPPOSECEF), `ubx_msg_nav_sol` (NAV-SOL); and `VECEF_SET`: `ubx_msg_nav_velecef`
///   (NAV-VELECEF), whose velocity is turned with the position.
@Suite(.blocking) struct GpsdPositionMessagesTests {
  typealias H = PassthroughHarness

  /// An NMEA sentence gpsd takes a position from, and a corpus log holding it.
  static let sentences: [(prefix: String, log: String)] = [
    ("$GPGGA", "sirfstarv-nmea.log"), ("$GNGGA", "ublox-zed-f9p-nmea.log"),
    ("$GNGLL", "ublox-zed-f9p-nmea.log"), ("$GPGLL", "ublox-lea-5h.log"),
    ("$GNRMC", "beidou-gb.log"), ("$GPRMC", "mtk-3301.log"), ("$GNGNS", "beidou-gb.log"),
    ("$PASHR,POS", "ac12_binary.log"), ("$PGRMF", "garmin17n.log"),
  ]

  /// A UBX NAV message gpsd takes a position from, and a corpus log holding it.
  static let frames: [(name: String, id: UInt8, log: String)] = [
    ("NAV-PVT", 0x07, "ublox-zed-f9p-hp.log"), ("NAV-HPPOSLLH", 0x14, "ublox-zed-f9p-hp.log"),
    ("NAV-POSECEF", 0x01, "ublox-zed-f9p-hp.log"), ("NAV-HPPOSECEF", 0x13, "ublox-zed-f9p-hp.log"),
    ("NAV-SOL", 0x06, "ublox-neo-m8t.log"),
  ]

  @Test(arguments: sentences) func everyPositionSentenceIsRewritten(prefix: String, log: String)
    throws
  {
    let lines = try Fixtures.lines(of: Fixtures.gpsdLog(log)).map(\.text)
      .filter { $0.hasPrefix(prefix + ",") }.suffix(20)
    let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
    let (output, statistics) = H.forward(bytes, .replace(H.sydney, replacesAltitude: false))
    let before = try H.decoded(bytes).messages
    let after = try H.decoded(output).messages
    #expect(after.count == before.count)
    let fixes = zip(before, after).filter { H.position(of: $0.0) != nil }
    #expect(!fixes.isEmpty, "no sample of \(prefix) with a fix in \(log)")
    #expect(statistics.sentencesRewritten == fixes.count)
    for (_, message) in fixes {
      let position = try #require(H.position(of: message))
      #expect(H.distance(position, H.sydney) < 20, "\(message)")
    }
  }

  /// pynmeagps does not decode `$PSTI,030`: its fields are read here by hand.
  @Test func skyTraqPSTI030IsRewritten() throws {
    let line = try #require(
      Fixtures.lines(of: Fixtures.gpsdLog("skytraq-fix.log")).map(\.text)
        .first { $0.hasPrefix("$PSTI,030,") && $0.split(separator: ",")[3] == "A" })
    let (output, statistics) = H.forward(
      Array((line + "\r\n").utf8), .replace(H.sydney, replacesAltitude: false))
    #expect(statistics.sentencesRewritten == 1)
    let text = String(decoding: output, as: UTF8.self)
    let fields = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    func degrees(_ value: String, _ hemisphere: String) -> Double {
      let number = Double(value) ?? .nan
      let whole = (number / 100).rounded(.down)
      let sign: Double = hemisphere == "S" || hemisphere == "W" ? -1 : 1
      return sign * (whole + (number - whole * 100) / 60)
    }
    #expect(abs(degrees(fields[4], fields[5]) - H.sydney.latitude) < 1e-6)
    #expect(abs(degrees(fields[6], fields[7]) - H.sydney.longitude) < 1e-6)
    #expect(fields[4].count == line.split(separator: ",")[4].count)
    let body = text.dropFirst().prefix { $0 != "*" }
    let checksum = body.utf8.reduce(UInt8(0), ^)
    #expect(text.contains("*" + String(checksum, radix: 16, uppercase: true).leftPadded(2)))
  }

  @Test(arguments: frames) func everyPositionFrameIsRewritten(name: String, id: UInt8, log: String)
    throws
  {
    let samples = H.packets(try H.log(log)).filter {
      $0.kind == .ubx && $0.problem == nil && $0.bytes[2] == 0x01 && $0.bytes[3] == id
    }.prefix(10)
    try expectRewritten(Array(samples.map(\.bytes).joined()), name: name, count: samples.count)
  }

  /// No corpus log holds a NAV-POSLLH: this one is built from the first NAV-PVT of a u-blox
  /// log (its iTOW, lon, lat, height, hMSL, hAcc, vAcc).
  @Test func navPOSLLHIsRewritten() throws {
    let pvt = try #require(
      H.packets(try H.log("ublox-zed-f9p-hp.log")).first {
        $0.kind == .ubx && $0.bytes[2] == 0x01 && $0.bytes[3] == 0x07
      })
    let payload = Array(pvt.bytes[6..<(pvt.bytes.count - 2)])
    let posllh = [0, 24, 28, 32, 36, 40, 44].flatMap { payload[$0..<($0 + 4)] }
    let frame = UBXFrame(messageClass: 0x01, id: 0x02, payload: posllh).bytes
    try expectRewritten(frame, name: "NAV-POSLLH", count: 1)
  }

  func expectRewritten(_ bytes: [UInt8], name: String, count: Int) throws {
    #expect(count > 0, "no \(name) in the corpus")
    let (output, statistics) = H.forward(bytes, .replace(H.sydney, replacesAltitude: false))
    #expect(statistics.framesRewritten == count)
    let messages = try H.decoded(output).messages
    #expect(messages.count == count)
    for message in messages {
      #expect(message["identity"] as? String == name)
      let position = try #require(H.position(of: message))
      #expect(H.distance(position, H.sydney) < 0.05, "\(message)")
    }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
