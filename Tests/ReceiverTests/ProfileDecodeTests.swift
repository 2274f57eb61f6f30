import Foundation
import Geodesy
import NMEA
import Receiver
import Simulation
import TestFixtures
import Testing

/// Every profile's output for a moving fix under a four-system sky, decoded by pynmeagps
/// (`Tests/Tools/decode_nmea.py`): no line rejected, and the positions, satellite counts and
/// DOPs it reads are the fix's.
@Suite(.blocking) struct ProfileDecodeTests {
  /// Four systems, three used of each plus one low satellite not used; and two EGNOS
  /// satellites, tracked but not used (GSV lists them as 36 and 49 under GP where the chip
  /// tracks SBAS).
  static let sky: [SatelliteInView] =
    Constellation.allCases.filter { !$0.isAugmentation }.enumerated().flatMap {
      offset, system in
      (0..<4).map { index in
        SatelliteInView(
          constellation: system, id: 3 + index * 5 + offset,
          elevation: index == 3 ? 8 : 25.0 + 15 * Double(index),
          azimuth: Double(offset * 90 + index * 30), snr: 30 + index, isUsed: index < 3)
      }
    }
    + [(123, 29.0, 147.0), (136, 33.0, 172.0)].map { prn, elevation, azimuth in
      SatelliteInView(
        constellation: .sbas, id: prn, elevation: elevation, azimuth: azimuth, snr: 27,
        isUsed: false)
    }

  static func fix(epoch: Int) throws -> Fix {
    let used = sky.filter(\.isUsed).map { (azimuth: $0.azimuth, elevation: $0.elevation) }
    return Fix(
      time: UTCInstant(year: 2026, month: 11, day: 30, hour: 12, second: epoch),
      mode: .threeDimensional,
      position: try GeodeticPosition(
        latitude: 44.0690 + 0.0001 * Double(epoch), longitude: -121.3142 + 0.00007 * Double(epoch),
        altitudeMeters: 1124.5 + Double(epoch)),
      geoidSeparationMeters: -19.6, speedMetersPerSecond: 12.5, courseDegrees: 35,
      satellites: sky, dop: DilutionOfPrecision(directions: used))
  }

  @Test(arguments: ReceiverProfile.all.map(\.name))
  func pynmeagpsDecodesEveryLineAsTheFix(_ name: String) throws {
    let profile = try #require(ReceiverProfile.named(name))
    // The sky has all four systems; each chip tracks those it tracks by default.
    let encoder = ReceiverEncoder(profile: profile)
    var text = profile.powerUpSentences.filter { $0.hasPrefix("$G") }.map { $0 + "\r\n" }.joined()
    let fixes = try (0..<6).map { try Self.fix(epoch: $0) }
    for (index, fix) in fixes.enumerated() {
      text += encoder.sentences(for: fix, epochIndex: index).map(\.line).joined()
    }
    let decoded = try Self.decode(text)
    #expect(decoded["errors"] as? Int == 0, "\(decoded["errorLines"] ?? "")")
    let epochs = try #require(decoded["epochs"] as? [[String: Any]])
    try #require(epochs.count == fixes.count)
    let tracked = encoder.nmea.constellations
    for (epoch, fix) in zip(epochs, fixes) {
      let tolerance = 1.0 / 60 / 10_000
      #expect(abs((epoch["lat"] as? Double ?? 0) - fix.position.latitude) <= tolerance)
      #expect(abs((epoch["lon"] as? Double ?? 0) - fix.position.longitude) <= tolerance)
      #expect(abs((epoch["alt"] as? Double ?? 0) - fix.position.altitudeMeters) <= 0.05)
      #expect(abs((epoch["hdop"] as? Double ?? 0) - (fix.dop?.horizontal ?? 0)) <= 0.05)
      let trackedSky = fix.satellites.filter { tracked.contains($0.constellation) }
      if (epoch["pdop"] as? Double) != nil {
        #expect(epoch["used"] as? Int == trackedSky.filter(\.isUsed).count)
        #expect(abs((epoch["pdop"] as? Double ?? 0) - (fix.dop?.position ?? 0)) <= 0.05)
      }
      if epoch["inView"] as? Int != 0 { #expect(epoch["inView"] as? Int == trackedSky.count) }
    }
  }

  /// The JSON `decode_nmea.py` prints for this text.
  static func decode(_ text: String) throws -> [String: Any] {
    try PythonTool.json("decode_nmea.py", input: Data(text.utf8))
  }
}
