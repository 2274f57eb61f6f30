import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing
import UBX

@testable import Receiver

/// The GLONASS strings decoded by RTKLIB, which knows nothing of mockgps: two minutes of the
/// F9P's RXM-SFRBX around a half hour (03:00 Moscow time, when tb changes), which `convbin`
/// turns into a RINEX navigation file (`Tests/Tools/rtklib_glonass_oracle.py`). Each tracked
/// satellite gets the ephemeris of each half hour, every field the engine's to the last digit
/// RINEX prints: tb (as UTC), −τn, γn, the frequency channel, position, velocity and
/// acceleration in km, health and age 0. No string fails RTKLIB's Hamming check.
///
/// Skipped when RTKLIB is missing, unless MOCKGPS_REQUIRE_GPSD=1 (`scripts/test`).
@Suite(.blocking) struct GLONASSNavigationOracleTests {
  static let sky = OrbitalSky.nominal(constellations: [.glonass], seed: 2, channelLimit: 184)
  static let place = GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 35)
  /// 2026-01-01 00:00:00 UTC: 03:00 Moscow time.
  static let halfHour = UTCInstant(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)

  /// An RXM-RAWX epoch (convbin takes its time from one), then the SFRBX of every second from
  /// a minute before the half hour to a minute after, as the encoder sends them at 1 Hz.
  static func capture(_ encoder: UBXRawMeasurementEncoder) -> (bytes: [UInt8], slots: Set<Int>) {
    let start = GPSTime(halfHour.adding(nanoseconds: -60_000_000_000))
    let signal = UBXRawMeasurements.Measurement(
      system: .gps, number: 1, signalID: 0, pseudorangeMeters: 23_000_000,
      carrierPhaseCycles: 0, dopplerHertz: 0, lockTimeMilliseconds: 0, carrierToNoise: 45,
      pseudorangeSigmaMeters: 1, carrierPhaseSigmaCycles: 0.01, dopplerSigmaHertz: 1)
    var bytes =
      UBXRawMeasurements(
        receiverSecondsOfWeek: start.secondsOfWeek, week: start.week, leapSeconds: 18,
        clockWasReset: false, measurements: [signal]
      ).frame.bytes
    var slots: [Int: Int] = [:]
    for second in -60..<60 {
      let time = halfHour.adding(nanoseconds: Int64(second) * 1_000_000_000)
      let tracked = sky.satellites(at: time, from: place).filter { $0.snr != nil }
      for frame in encoder.subframes(at: time, tracked: tracked) {
        bytes += frame.bytes
        slots[Int(frame.payload[1]), default: 0] += 1
      }
    }
    // The satellites tracked throughout: a string every 2 s.
    return (bytes, Set(slots.filter { $0.value == 60 }.keys))
  }

  /// A field as RINEX prints it (12 significant digits) equals `expected` to its last digit.
  /// A position in km is a multiple of 2⁻¹¹ km with up to 16 significant digits, so it can
  /// fall halfway between two printed values: the bound allows the parsed decimal's own
  /// rounding beyond the half digit.
  static func expectPrinted(
    _ fields: [String: String], _ name: String, _ expected: Double, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let text = fields[name], let printed = Double(text),
      let point = text.firstIndex(of: "."), let mark = text.firstIndex(of: "E")
    else {
      Issue.record("\(label) \(name): \(fields[name] ?? "missing")", sourceLocation: sourceLocation)
      return
    }
    let digits = text.distance(from: point, to: mark) - 1
    let exponent = Int(text[text.index(after: mark)...]) ?? 0
    let halfDigit = 0.5 * pow(10, Double(exponent - digits))
    #expect(
      abs(printed - expected) <= halfDigit + 1e-12 * abs(expected),
      "\(label) \(name): \(text), expected \(expected)", sourceLocation: sourceLocation)
  }

  @Test(
    .enabled(
      if: RTKLIBOracle.runnable,
      "RTKLIB (convbin, rnx2rtkp) is not installed: scripts/install-deps --test"))
  func convbinDecodesTheEphemerisOfEachHalfHourToTheLastDigitRINEXPrints() throws {
    try #require(RTKLIBOracle.installed, "MOCKGPS_REQUIRE_GPSD=1 requires RTKLIB")
    let encoder = UBXRawMeasurementEncoder(
      satellites: Self.sky.orbitingSatellites, seed: 2, epochPeriodSeconds: 1)
    let (bytes, slots) = Self.capture(encoder)
    try #require(slots.count >= 4, "\(slots)")
    let result = try PythonTool.json("rtklib_glonass_oracle.py", input: Data(bytes))
    #expect(result["convbin"] as? Int == 0, "\(result)")
    #expect(result["traced"] as? Bool == true, "\(result)")
    #expect((result["traceErrors"] as? [String])?.isEmpty == true, "\(result)")
    let records = try #require(result["ephemerides"] as? [[String: Any]], "\(result)")
    // The half hours' frames start at 02:59:30 and 03:00:00 Moscow time; tb 02:45 and 03:15
    // Moscow time are 23:45 and 00:15 UTC.
    let halves = [
      (GPSTime(Self.halfHour).secondsSinceEpoch - 30, "2025 12 31 23 45 00"),
      (GPSTime(Self.halfHour).secondsSinceEpoch, "2026 01 01 00 15 00"),
    ]
    var decoded: [Int: [String]] = [:]
    for record in records {
      let slot = try #require(record["slot"] as? Int)
      let fields = try #require(record["fields"] as? [String: String])
      let epoch = fields["epoch"] ?? ""
      decoded[slot, default: []].append(epoch)
      guard let (frameStart, _) = halves.first(where: { $0.1 == epoch }),
        let ephemeris = encoder.engine.glonassEphemeris(slot: slot, atGPSSeconds: frameStart)
      else {
        Issue.record("R\(slot): no ephemeris at \(epoch)")
        continue
      }
      let label = "R\(slot) \(epoch)"
      for (name, value) in [
        ("minusTauN", -ephemeris.clockBiasSeconds), ("gammaN", ephemeris.relativeFrequencyBias),
        ("x", ephemeris.position.x / 1000), ("y", ephemeris.position.y / 1000),
        ("z", ephemeris.position.z / 1000), ("vx", ephemeris.velocity.x / 1000),
        ("vy", ephemeris.velocity.y / 1000), ("vz", ephemeris.velocity.z / 1000),
        ("ax", ephemeris.acceleration.x / 1000), ("ay", ephemeris.acceleration.y / 1000),
        ("az", ephemeris.acceleration.z / 1000), ("health", 0), ("age", 0),
        ("channel", Double(ephemeris.frequencyChannel)),
      ] {
        Self.expectPrinted(fields, name, value, label)
      }
    }
    for slot in slots {
      #expect(decoded[slot]?.sorted() == halves.map(\.1), "R\(slot): \(decoded[slot] ?? [])")
    }
    print(
      "RTKLIB decoded \(records.count) GLONASS ephemerides of \(slots.count) satellites "
        + "tracked throughout: \(decoded.keys.sorted().map { "R\($0)" })")
  }
}
