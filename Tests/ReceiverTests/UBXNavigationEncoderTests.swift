import Foundation
import Geodesy
import Receiver
import Simulation
import TestFixtures
import Testing
import UBX

@Suite(.blocking) struct UBXNavigationEncoderTests {
  static let everyMessage = OutputSelection(
    nmea: [:],
    ubx: Dictionary(uniqueKeysWithValues: UBXNavigationEncoder.messageOrder.map { ($0, 1) }))

  static let sky: [SatelliteInView] = [
    .init(constellation: .gps, id: 3, elevation: 71.4, azimuth: 41.2, snr: 47, isUsed: true),
    .init(constellation: .gps, id: 17, elevation: 22.6, azimuth: 301.9, snr: 38, isUsed: true),
    .init(constellation: .glonass, id: 9, elevation: 35.1, azimuth: 190.4, snr: 41, isUsed: true),
    .init(constellation: .galileo, id: 26, elevation: 48.7, azimuth: 118.8, snr: 44, isUsed: true),
    .init(constellation: .beidou, id: 23, elevation: 15.2, azimuth: 250.3, snr: 33, isUsed: true),
    .init(constellation: .gps, id: 30, elevation: 2.0, azimuth: 10.0, snr: nil, isUsed: false),
  ]

  /// A car driving north-east and climbing, one epoch a second from 2026-11-29 14:39:54 UTC.
  static func fix(epoch: Int) -> Fix {
    let used = sky.filter(\.isUsed).map { (azimuth: $0.azimuth, elevation: $0.elevation) }
    return Fix(
      time: UTCInstant(year: 2026, month: 11, day: 29, hour: 14, minute: 39, second: 54)
        .adding(nanoseconds: Int64(epoch) * 1_000_000_000),
      mode: .threeDimensional,
      position: GeodeticPosition(
        known: 48.858_4 + Double(epoch) * 1.1e-4, 2.294_5 + Double(epoch) * 1.7e-4,
        altitudeMeters: 35.25 + Double(epoch) * 0.5),
      geoidSeparationMeters: 47.3, speedMetersPerSecond: 15.4, courseDegrees: 45.2, satellites: sky,
      dop: DilutionOfPrecision(directions: used), climbMetersPerSecond: 0.5)
  }

  @Test func messagesGoOutInTheChipsOrderWhenDue() {
    let encoder = UBXNavigationEncoder(profile: .generic)
    let fix = Self.fix(epoch: 0)
    #expect(
      encoder.frames(for: fix, output: Self.everyMessage, epochIndex: 3).map(\.messageType)
        == encoder.navigationMessages)
    let sparse = OutputSelection(nmea: [:], ubx: [.navPVT: 1, .navSAT: 5])
    #expect(encoder.frames(for: fix, output: sparse, epochIndex: 3).map(\.messageType) == [.navPVT])
    #expect(
      encoder.frames(for: fix, output: sparse, epochIndex: 5).map(\.messageType) == [
        .navPVT, .navSAT,
      ])
    var off = sparse
    off.ubxProtocolEnabled = false
    #expect(encoder.frames(for: fix, output: off, epochIndex: 0).isEmpty)
  }

  @Test func velocitiesAgreeWithSpeedCourseAndClimb() {
    let solution = UBXNavigationEncoder.solution(for: Self.fix(epoch: 0))
    let ned = solution.velocityNED
    #expect(abs((ned.x * ned.x + ned.y * ned.y).squareRoot() - 15.4) < 1e-9)
    #expect(abs(atan2(ned.y, ned.x) * 180 / .pi - 45.2) < 1e-9)
    #expect(ned.z == -0.5)
    let ecef = solution.velocityECEF
    #expect(
      abs((ecef.x * ecef.x + ecef.y * ecef.y + ecef.z * ecef.z) - (15.4 * 15.4 + 0.25)) < 1e-9)
    #expect(solution.heightAboveEllipsoidMeters == 35.25 + 47.3)
    // 2026-11-29 is the Sunday starting GPS week 2447; GPS runs 18 s ahead of UTC.
    #expect(solution.gpsWeek == 2447)
    #expect(solution.timeOfWeekMilliseconds == (14 * 3600 + 39 * 60 + 54 + 18) * 1000)
    #expect(solution.leapSeconds == 18)
  }

  /// Once the fix is lost, no satellite is used: NAV-PVT counts none, and NAV-SAT's `svUsed`
  /// and NAV-SIG's `prUsed` and `doUsed` are clear, from the one solution.
  @Test func aLostFixUsesNoSatellite() {
    var fix = Self.fix(epoch: 0)
    fix.mode = .noFix
    fix.dop = nil
    let solution = UBXNavigationEncoder.solution(for: fix)
    #expect(solution.satellitesUsedCount == 0)
    let sig = solution.navSIG(signalIDs: [.gps: [0, 3]]).payload
    let signalFlags = stride(from: 8 + 10, to: sig.count, by: 16).map {
      UInt16(sig[$0]) | UInt16(sig[$0 + 1]) << 8
    }
    #expect(signalFlags.count == Self.sky.count + 3)
    #expect(signalFlags.allSatisfy { $0 & 0x28 == 0 })
    let sat = solution.navSAT.payload
    #expect(stride(from: 8 + 8, to: sat.count, by: 12).allSatisfy { sat[$0] & 0x08 == 0 })
    #expect(UBXNavigationEncoder.solution(for: Self.fix(epoch: 0)).satellitesUsedCount == 5)
  }

  /// pyubx2 (an independent decoder) reads five epochs of every message with zero errors and
  /// the values of the fix, to within each field's resolution.
  @Test func pyubx2DecodesEveryMessageOfAMovingFix() throws {
    let encoder = UBXNavigationEncoder(profile: .generic)
    let fixes = (0..<5).map(Self.fix(epoch:))
    let bytes = fixes.enumerated().flatMap { index, fix in
      encoder.frames(for: fix, output: Self.everyMessage, epochIndex: index).flatMap(\.bytes)
    }
    let decoded = try Self.decode(bytes)
    #expect((decoded["errors"] as? [Any])?.isEmpty == true, "\(decoded["errors"] ?? "")")
    let messages = try #require(decoded["messages"] as? [[String: Any]])
    #expect(messages.count == 5 * encoder.navigationMessages.count)
    let pvts = messages.filter { $0["identity"] as? String == "NAV-PVT" }
    #expect(pvts.count == 5)
    for (pvt, fix) in zip(pvts, fixes) {
      #expect(abs(try #require(pvt["lat"] as? Double) - fix.position.latitude) <= 0.6e-7)
      #expect(abs(try #require(pvt["lon"] as? Double) - fix.position.longitude) <= 0.6e-7)
      #expect(abs(try #require(pvt["hMSL"] as? Double) - fix.position.altitudeMeters) <= 0.0006)
      #expect(pvt["numSV"] as? Int == 5)
      #expect(pvt["fixType"] as? Int == 3)
      let pdop = try #require(fix.dop).position
      #expect(abs(try #require(pvt["pDOP"] as? Double) - pdop) <= 0.006)
    }
    let sats = messages.filter { $0["identity"] as? String == "NAV-SAT" }
    #expect(sats.count == 5)
    for sat in sats {
      let listed = try #require(sat["satellites"] as? [[String: Any]])
      #expect(listed.count == Self.sky.count)
      for (entry, satellite) in zip(listed, Self.sky) {
        #expect(entry["svId"] as? Int == satellite.id)
        #expect(abs(Double(try #require(entry["elev"] as? Int)) - satellite.elevation) <= 0.5)
        #expect(abs(Double(try #require(entry["azim"] as? Int)) - satellite.azimuth) <= 0.5)
        #expect(entry["cno"] as? Int == satellite.snr ?? 0)
        #expect((entry["used"] as? Int == 1) == satellite.isUsed)
      }
    }
    let gnssIDs = try #require(sats.first?["satellites"] as? [[String: Any]]).map {
      $0["gnssId"] as? Int
    }
    #expect(gnssIDs == [0, 0, 6, 2, 3, 0])
    let svinfo = try #require(messages.first { $0["identity"] as? String == "NAV-SVINFO" })
    let svids = try #require(svinfo["satellites"] as? [[String: Any]]).map { $0["svid"] as? Int }
    #expect(svids == [3, 17, 73, 236, 50, 30])
  }

  /// What `Tests/Tools/decode_ubx.py` (pyubx2) reads in `bytes`.
  static func decode(_ bytes: [UInt8]) throws -> [String: Any] {
    try PythonTool.json("decode_ubx.py", input: Data(bytes))
  }
}
