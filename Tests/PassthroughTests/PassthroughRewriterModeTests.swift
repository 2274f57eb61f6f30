import Foundation
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import Passthrough

/// Each override mode on real corpus logs, read back by pyubx2/pynmeagps: a u-blox log with
/// UBX (NAV-PVT, NAV-POSECEF, NAV-HPPOSECEF, NAV-HPPOSLLH, NAV-VELECEF), one with NAV-SOL, a
/// multi-GNSS log (GN talkers, GNS), an MTK log and a SiRF NMEA log (GP and GL talkers).
@Suite(.blocking) struct PassthroughRewriterModeTests {
  static let logs = [
    "ublox-zed-f9p-hp.log", "ublox-neo-m8t.log", "beidou-gb.log", "mtk-3301.log",
    "sirfstarv-nmea.log", "ublox-zed-f9p-nmea.log",
  ]
  typealias H = PassthroughHarness

  /// What the oracle decodes from a log before and after, message by message; checks that
  /// nothing but positions and motion changed (identity, satellites, fix mode and quality).
  func decodedPairs(_ name: String, _ override: PositionOverride) throws
    -> [(input: [String: Any], output: [String: Any])]
  {
    let bytes = try H.log(name)
    let (output, statistics) = H.forward(bytes, override)
    let before = try H.decoded(bytes)
    let after = try H.decoded(output)
    #expect(after.errors == before.errors, "\(name): the oracle rejects rewritten messages")
    #expect(after.messages.count == before.messages.count)
    #expect(statistics.sentencesRewritten + statistics.framesRewritten > 0)
    let pairs = Array(zip(before.messages, after.messages))
    for (input, output) in pairs {
      #expect(input["identity"] as? String == output["identity"] as? String)
      for key in ["numSV", "fixType", "gpsFix", "quality", "status"] {
        #expect(
          input[key].map { "\($0)" } == output[key].map { "\($0)" },
          "\(name): \(key) of \(input["identity"] ?? "")")
      }
    }
    return pairs
  }

  /// The pairs whose input has a position.
  func positioned(_ pairs: [(input: [String: Any], output: [String: Any])])
    -> [(input: GeodeticPosition, output: GeodeticPosition, message: [String: Any])]
  {
    pairs.compactMap { pair in
      guard let input = H.position(of: pair.input), let output = H.position(of: pair.output)
      else { return nil }
      return (input, output, pair.output)
    }
  }

  @Test(arguments: logs) func replacePutsEveryFixAtThePositionAndStopsIt(name: String) throws {
    let pairs = try decodedPairs(name, .replace(H.sydney, replacesAltitude: true))
    let fixes = positioned(pairs)
    #expect(fixes.count > 5)
    for fix in fixes {
      #expect(H.distance(fix.output, H.sydney) < 2, "\(name): \(fix.message)")
    }
    for (input, output) in pairs {
      let identity = output["identity"] as? String ?? ""
      if identity.hasSuffix("GGA") || identity.hasSuffix("GNS"), H.position(of: input) != nil,
        output["alt"] as? Double != nil
      {
        #expect(output["alt"] as? Double == 58, "\(name): \(output)")
      }
      if identity == "NAV-PVT", (output["fixType"] as? Double ?? 0) > 0 {
        #expect(output["hMSL"] as? Double == 58)
        #expect(output["gSpeed"] as? Double == 0)
        #expect(output["velN"] as? Double == 0 && output["velE"] as? Double == 0)
      }
      if identity.hasSuffix("RMC") || identity.hasSuffix("VTG"),
        let speed = output["speed"] as? Double, H.hasFix(input)
      {
        #expect(speed == 0, "\(name): \(output)")
      }
      if identity == "NAV-SOL" || identity == "NAV-VELECEF", (input["gpsFix"] as? Double ?? 1) > 0 {
        let speed = ["ecefVX", "ecefVY", "ecefVZ"].map { output[$0] as? Double ?? 0 }
        #expect(speed.allSatisfy { $0 == 0 }, "\(name): \(output)")
      }
    }
  }

  @Test(arguments: logs) func offsetByMovesEveryFixNorthAndEast(name: String) throws {
    let fixes = positioned(try decodedPairs(name, .offsetBy(northMeters: 1000, eastMeters: -250)))
    #expect(fixes.count > 5)
    for fix in fixes {
      let expected = Geodesic.wgs84.direct(
        from: fix.input, azimuthDegrees: atan2(-250, 1000) * 180 / .pi,
        distanceMeters: (1000.0 * 1000 + 250 * 250).squareRoot()
      ).position
      #expect(H.distance(fix.output, expected) < 2, "\(name): \(fix.message)")
    }
  }

  @Test(arguments: logs) func offsetToPutsTheFirstFixThereAndKeepsTheTrack(name: String) throws {
    let fixes = positioned(try decodedPairs(name, .offsetTo(H.sydney)))
    let first = try #require(fixes.first)
    #expect(H.distance(first.output, H.sydney) < 2)
    for fix in fixes {
      let real = H.distance(fix.input, first.input)
      #expect(abs(H.distance(fix.output, H.sydney) - real) < 2, "\(name): \(fix.message)")
    }
  }

  @Test(arguments: logs) func freezeHoldsTheFirstRealFix(name: String) throws {
    let pairs = try decodedPairs(name, .freeze)
    let fixes = positioned(pairs)
    let first = try #require(fixes.first)
    #expect(H.distance(first.output, first.input) < 2)
    for fix in fixes {
      #expect(H.distance(fix.output, first.input) < 2, "\(name): \(fix.message)")
    }
  }

  @Test(arguments: logs) func routeGivesTheMotionsPositionSpeedAndCourse(name: String) throws {
    let motion = StraightLineMotion(
      start: H.sydney, startTime: H.now, speedMetersPerSecond: 12.5, courseDegrees: 71)
    let pairs = try decodedPairs(name, .route(motion))
    for fix in positioned(pairs) {
      #expect(H.distance(fix.output, H.sydney) < 2, "\(name): \(fix.message)")
    }
    for (input, output) in pairs where H.position(of: input) != nil {
      let identity = output["identity"] as? String ?? ""
      if identity.hasSuffix("RMC"), let speed = output["speed"] as? Double {
        #expect(abs(speed - 12.5 * 3600 / 1852) < 0.06, "\(name): \(output)")
        if let course = output["course"] as? Double { #expect(abs(course - 71) < 0.06) }
      }
      if identity == "NAV-PVT" {
        #expect(output["gSpeed"] as? Double == 12.5)
        #expect(abs((output["headMot"] as? Double ?? 0) - 71) < 1e-4)
        let north = output["velN"] as? Double ?? 0
        let east = output["velE"] as? Double ?? 0
        #expect(abs(atan2(east, north) * 180 / .pi - 71) < 0.1)
      }
    }
    for (input, output) in pairs
    where (output["identity"] as? String ?? "").hasSuffix("VTG") && H.hasFix(input) {
      guard let speed = output["speed"] as? Double else { continue }
      #expect(abs(speed - 12.5 * 3600 / 1852) < 0.06, "\(name): \(output)")
      if let kmh = output["kmh"] as? Double { #expect(abs(kmh - 45) < 0.06) }
      if let course = output["course"] as? Double { #expect(abs(course - 71) < 0.06) }
    }
  }

  @Test(arguments: logs) func offLeavesEveryByteAsReceived(name: String) throws {
    let bytes = try H.log(name)
    let (output, statistics) = H.forward(bytes, .off, chunkSizes: [1, 7, 4096, 333])
    #expect(output == bytes)
    #expect(statistics.bytesForwarded == bytes.count)
    #expect(statistics.sentencesRewritten == 0)
  }
}
