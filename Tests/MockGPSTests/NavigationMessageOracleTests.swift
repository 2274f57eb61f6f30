import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing
import UBX

/// The Galileo I/NAV and BeiDou D1 messages decoded by RTKLIB, which knows nothing of mockgps:
/// a full 30 s frame of a few satellites of each system as RXM-SFRBX, which `convbin` turns into
/// a RINEX navigation file (`Tests/Tools/rtklib_navigation_oracle.py`). Every field RTKLIB
/// decodes is the ephemeris' to the last digit RINEX prints, and the positions computed from
/// them with each system's constants are the ephemeris' and the sky's within 0.1 m over toe
/// ± 1 h (which checks Δn, Ω₀ and Ω̇ as BroadcastEphemeris converts them to the system's μ,
/// ωₑ and time scale).
///
/// Skipped when RTKLIB is missing, unless MOCKGPS_REQUIRE_GPSD=1 (`scripts/test`), which makes
/// its absence fail (`RTKLIBOracle`).
@Suite(.blocking) struct NavigationMessageOracleTests {
  /// GPS week 2400, day 1, 00:00: a two-hour mark, Galileo's toe.
  static let galileoToe = 1_451_606_400.0
  /// BDT 01:00 of the same day: a whole hour on BeiDou's scale, 14 s later in GPS time.
  static let beidouToe = 1_451_606_400.0 + 3600 + 14
  static let clockBias = 1.234e-4

  /// An eccentric orbit with a drifting node, for the fields the nominal circular orbits leave
  /// at zero (e, ω, a large Ω̇).
  static func eccentric(_ constellation: Constellation, id: Int) -> OrbitingSatellite {
    OrbitingSatellite(
      constellation: constellation, id: id, isHealthy: true,
      orbit: KeplerianOrbit(
        semiMajorAxisMeters: 5440.6 * 5440.6, eccentricity: 0.0123, inclinationRadians: 0.958,
        rightAscensionAtWeekRadians: -1.23, rateOfRightAscensionRadiansPerSecond: -8.1e-9,
        argumentOfPerigeeRadians: 0.77, meanAnomalyRadians: 2.1, referenceSecondsOfWeek: 405_504,
        referenceWeek: 2399))
  }

  /// Four nominal satellites of a system and one eccentric one.
  static func satellites(_ constellation: Constellation, eccentricID: Int) -> [OrbitingSatellite] {
    let nominal = NominalConstellation.satellites(of: constellation)
    return [0, 5, 13, 20].map { nominal[$0] } + [eccentric(constellation, id: eccentricID)]
  }

  static let galileoSatellites = satellites(.galileo, eccentricID: 14)
  static let beidouSatellites = satellites(.beidou, eccentricID: 11)
  static let galileo = galileoSatellites.map {
    BroadcastEphemeris(
      satellite: $0, referenceGPSSeconds: galileoToe, clockBiasSeconds: clockBias,
      clockDriftSecondsPerSecond: 0)
  }
  static let beidou = beidouSatellites.map {
    BroadcastEphemeris(
      satellite: $0, referenceGPSSeconds: beidouToe, clockBiasSeconds: clockBias,
      clockDriftSecondsPerSecond: 0)
  }

  /// A 30 s I/NAV subframe from each Galileo satellite (toe + 30 s on), then a 30 s D1 frame
  /// from each BeiDou satellite (toe + 30 s on), interleaved as a receiver sends them.
  static func capture() -> [UInt8] {
    // convbin takes the time from RXM-RAWX and needs an observation epoch (without one it
    // crashes): one of a single signal at the start.
    let signal = UBXRawMeasurements.Measurement(
      system: .galileo, number: galileo[0].prn, signalID: 0, pseudorangeMeters: 23_000_000,
      carrierPhaseCycles: 0, dopplerHertz: 0, lockTimeMilliseconds: 0, carrierToNoise: 45,
      pseudorangeSigmaMeters: 1, carrierPhaseSigmaCycles: 0.01, dopplerSigmaHertz: 1)
    var bytes =
      UBXRawMeasurements(
        receiverSecondsOfWeek: galileo[0].referenceSecondsOfWeek + 30,
        week: galileo[0].week, leapSeconds: 18, clockWasReset: false, measurements: [signal]
      ).frame.bytes
    let galileoStart = galileo[0].referenceSecondsOfWeek + 30
    let galileoWeek = galileo[0].week - galileo[0].conventions.weekOffset
    for offset in stride(from: 0.0, to: 30, by: 2) {
      for (channel, ephemeris) in galileo.enumerated() {
        let message = GalileoINAVMessage(ephemeris: ephemeris, leapSeconds: 18)
        let words = message.pagePair(startingAt: galileoStart + offset, week: galileoWeek)
        // RTKLIB 2.4.3 b34 takes a Galileo frame of fewer than nine words for E5b and skips
        // it (`raw->len<44+off` in decode_enav): a ninth word, zero, which it does not read.
        bytes +=
          UBXSubframe(
            system: .galileo, number: ephemeris.prn, signalID: 1, channel: channel,
            words: words + [0]
          ).frame.bytes
      }
    }
    let beidouStart = beidou[0].referenceSecondsOfWeek + 30
    let beidouWeek = beidou[0].week - beidou[0].conventions.weekOffset
    for offset in stride(from: 0.0, to: 30, by: 6) {
      for (channel, ephemeris) in beidou.enumerated() {
        let message = BeiDouD1Message(
          ephemeris: ephemeris, ionosphere: .typical, leapSeconds: 18)
        let words = message.subframe(startingAt: beidouStart + offset, week: beidouWeek)
        bytes +=
          UBXSubframe(
            system: .beidou, number: ephemeris.prn, signalID: 0, channel: 10 + channel,
            words: words
          ).frame.bytes
      }
    }
    return bytes
  }

  /// A field as RINEX prints it equals `expected` to its last printed digit (RTKLIB prints 12
  /// after the point).
  static func expectPrinted(
    _ fields: [String: String], _ name: String, _ expected: Double, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let text = fields[name], let printed = Double(text),
      let point = text.firstIndex(of: "."), let mark = text.firstIndex(where: { $0 == "E" })
    else {
      Issue.record("\(label) \(name): \(fields[name] ?? "missing")", sourceLocation: sourceLocation)
      return
    }
    let digits = text.distance(from: point, to: mark) - 1
    let exponent = Int(text[text.index(after: mark)...]) ?? 0
    let halfDigit = 0.5 * pow(10, Double(exponent - digits)) * (1 + 1e-9)
    #expect(
      abs(printed - expected) <= halfDigit, "\(label) \(name): \(text), expected \(expected)",
      sourceLocation: sourceLocation)
  }

  /// The largest distance between the positions RINEX's values give and `position`, meters.
  static func largestDistance(
    _ positions: [[Double]], from position: (Double) -> EarthCenteredPosition
  ) -> Double {
    positions.map { row in
      let truth = position(row[0])
      let dx = row[1] - truth.x
      let dy = row[2] - truth.y
      let dz = row[3] - truth.z
      return (dx * dx + dy * dy + dz * dz).squareRoot()
    }.max() ?? .infinity
  }

  @Test(
    .enabled(
      if: RTKLIBOracle.runnable,
      "RTKLIB (convbin, rnx2rtkp) is not installed: scripts/install-deps --test"))
  func convbinDecodesEveryEphemerisToTheLastDigitRINEXPrintsAndItsPositions() throws {
    try #require(RTKLIBOracle.installed, "MOCKGPS_REQUIRE_GPSD=1 requires RTKLIB")
    let result = try PythonTool.json(
      "rtklib_navigation_oracle.py", input: Data(Self.capture()))
    #expect(result["convbin"] as? Int == 0, "\(result)")
    #expect(result["traced"] as? Bool == true, "\(result)")
    #expect((result["traceErrors"] as? [String])?.isEmpty == true, "\(result)")
    let records = try #require(result["ephemerides"] as? [[String: Any]], "\(result)")
    let satellites = [
      "E": zip(Self.galileoSatellites, Self.galileo).map { ($0, $1, Self.galileoToe) },
      "C": zip(Self.beidouSatellites, Self.beidou).map { ($0, $1, Self.beidouToe) },
    ]
    var decoded: [String: [Int]] = [:]
    var largest = (broadcast: 0.0, sky: 0.0)
    for record in records {
      let system = try #require(record["system"] as? String)
      let prn = try #require(record["prn"] as? Int)
      let fields = try #require(record["fields"] as? [String: String])
      let positions = try #require(record["positions"] as? [[Double]])
      decoded[system, default: []].append(prn)
      let label = "\(system)\(prn)"
      guard let (satellite, ephemeris, toe) = satellites[system]?.first(where: { $0.1.prn == prn })
      else {
        Issue.record("\(label): no such satellite was sent")
        continue
      }
      let conventions = ephemeris.conventions
      for (name, value) in [
        ("toe", ephemeris.referenceSecondsOfWeek), ("sqrtA", ephemeris.squareRootOfSemiMajorAxis),
        ("e", ephemeris.eccentricity), ("i0", ephemeris.inclinationRadians),
        ("omega0", ephemeris.rightAscensionRadians), ("omega", ephemeris.argumentOfPerigeeRadians),
        ("m0", ephemeris.meanAnomalyRadians),
        ("deltaN", ephemeris.meanMotionCorrectionRadiansPerSecond),
        ("omegaDot", ephemeris.rateOfRightAscensionRadiansPerSecond),
        ("af0", ephemeris.clockBiasSeconds), ("af1", ephemeris.clockDriftSecondsPerSecond),
        ("af2", 0), ("cuc", 0), ("cus", 0), ("crc", 0), ("crs", 0), ("cic", 0), ("cis", 0),
        ("idot", 0), ("health", 0),
        // IODnav for Galileo; AODE (an age in hours, 0) for BeiDou.
        ("iod", system == "E" ? Double(ephemeris.issueOfData) : 0),
        // RTKLIB writes Galileo's week aligned with GPS's, BeiDou's as BDT's.
        ("week", Double(system == "E" ? ephemeris.week : ephemeris.week - conventions.weekOffset)),
      ] {
        Self.expectPrinted(fields, name, value, label)
      }
      // The epoch is toc, on the system's scale: toe's time of day.
      let secondOfDay = Int(ephemeris.referenceSecondsOfWeek) % 86_400
      let clock = [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60].map {
        $0 < 10 ? "0\($0)" : "\($0)"
      }
      #expect(fields["epoch"]?.hasSuffix(clock.joined(separator: " ")) == true, "\(label)")
      let broadcast = Self.largestDistance(positions) {
        ephemeris.position(atGPSSeconds: toe + $0)
      }
      let sky = Self.largestDistance(positions) { satellite.orbit.position(atGPSSeconds: toe + $0) }
      #expect(positions.count == 13, "\(label)")
      #expect(broadcast < 0.1, "\(label): \(broadcast) m from the ephemeris")
      #expect(sky < 0.1, "\(label): \(sky) m from the sky")
      largest = (max(largest.broadcast, broadcast), max(largest.sky, sky))
    }
    #expect(decoded["E"]?.sorted() == Self.galileo.map(\.prn).sorted(), "\(decoded)")
    #expect(decoded["C"]?.sorted() == Self.beidou.map(\.prn).sorted(), "\(decoded)")
    print(
      "RTKLIB decoded \(decoded["E"]?.count ?? 0) Galileo and \(decoded["C"]?.count ?? 0) "
        + "BeiDou ephemerides; positions over toe ± 1 h within \(largest.broadcast) m of the "
        + "ephemeris', \(largest.sky) m of the sky's")
  }
}
