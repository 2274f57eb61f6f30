import Foundation
import Geodesy
import MockGPS
import Simulation
import TestFixtures
import Testing

/// RTK from the simulated sky, solved by RTKLIB: a base's and a rover's RXM-RAWX and RXM-SFRBX
/// captured on virtual time, 36 m apart under the same sky, each with its own measurement noise
/// and carrier ambiguities (their links differ), turned into RINEX by convbin and
/// solved by rnx2rtkp kinematically against the base: the ambiguities fix, and the fixed epochs
/// give the configured baseline within 2 cm.
///
/// Skipped when RTKLIB is missing, unless MOCKGPS_REQUIRE_GPSD=1 (`scripts/test`).
@Suite(.blocking) struct RTKOracleTests {
  static let base = GeodeticPosition(known: 48.85, 2.35, altitudeMeters: 60)
  static let rover = GeodeticPosition(
    known: 48.85 + 20 / 111_200, 2.35 + 30 / (111_320 * 0.658_02), altitudeMeters: 60)
  static let seconds = 120

  /// A cut of every signal (`CycleSlipTests`).
  enum Cut: Sendable { case none, rover }

  /// What rnx2rtkp solves with: its systems (RINEX letters) and frequencies (1: L1; 2: L1 and
  /// L2, E1 and E5b, B1I and B2I).
  struct Solver: Sendable, CustomTestStringConvertible {
    var systems: String
    var frequencies: Int
    /// Whether the rover loses every signal for 2 s a minute in, and locks them again with a
    /// new ambiguity each (RXM-RAWX's lock time back to 0, which convbin turns into RINEX's
    /// loss-of-lock flag, and 2 epochs, fewer than rnx2rtkp's 5 of outage that reset them).
    var cut = Cut.none
    var testDescription: String {
      "\(systems), \(frequencies) frequencies" + (cut == .rover ? ", the rover cut off 2 s" : "")
    }
  }

  @Test(
    .enabled(
      if: RTKLIBOracle.runnable,
      "RTKLIB (convbin, rnx2rtkp) is not installed: scripts/install-deps --test"),
    arguments: [
      Solver(systems: "G", frequencies: 1), Solver(systems: "G,R,E,C", frequencies: 2),
      Solver(systems: "G,R,E,C", frequencies: 2, cut: .rover),
    ])
  func rnx2rtkpFixesTheAmbiguitiesAndFindsTheRoverWithin2Centimetres(_ solver: Solver) throws {
    try #require(RTKLIBOracle.installed, "RTKLIB is required (MOCKGPS_REQUIRE_GPSD=1)")
    let start = RawMeasurementOracleTests.start
    let (roverBytes, roverTruth) = try RawMeasurementOracleTests.capture(
      profile: "ublox-f9p", position: Self.rover, seed: 7, start: start, seconds: Self.seconds,
      link: "/dev/ttyROVER",
      faults: solver.cut == .rover
        ? [
          FixFault(
            .loseSatellites(.all),
            window: FaultWindow(
              from: start.adding(nanoseconds: 60_000_000_000), nanoseconds: 2_000_000_000))
        ] : .none)
    let (baseBytes, baseTruth) = try RawMeasurementOracleTests.capture(
      profile: "ublox-f9p", position: Self.base, seed: 7, start: start, seconds: Self.seconds,
      link: "/dev/ttyBASE")
    let baseFile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mockgps-base-\(UUID().uuidString).ubx")
    try Data(baseBytes).write(to: baseFile)
    defer { try? FileManager.default.removeItem(at: baseFile) }
    let result = try PythonTool.json(
      "rtklib_rtk_oracle.py", input: Data(roverBytes),
      arguments: [
        "--systems=\(solver.systems)", "--frequencies=\(solver.frequencies)", baseFile.path,
      ]
        + [
          baseTruth.x, baseTruth.y, baseTruth.z, roverTruth.x,
          roverTruth.y, roverTruth.z,
        ].map { String($0) })
    let figures = ["solutions", "fixed", "firstFixed", "meanError", "maxError", "baselineError"]
      .map { "\($0) \(result[$0].map { "\($0)" } ?? "-")" }
    print("rnx2rtkp RTK, 36 m baseline, \(solver): \(figures.joined(separator: ", "))")
    // RTKLIB drops a carrier phase whose RAWX cpStdev is over 0.02 cycles (below about
    // 29 dB-Hz): an epoch left with fewer than four shared phases above the mask has no
    // solution (one of 120 in this capture).
    let solutions = result["solutions"] as? Int ?? 0
    #expect(solutions >= Self.seconds - 5 - (solver.cut == .rover ? 2 : 0), "\(result)")
    if solver.cut == .rover {
      // The slip is taken as one: the ambiguities fix again, and no epoch is fixed wrong.
      #expect(result["fixed"] as? Int ?? 0 >= solutions - 10, "\(result)")
    }
    // Fixed in most epochs once the filter has converged (epoch 14 of this capture), the
    // baseline within 2 cm of the configured one in every fixed epoch and the position within
    // 2 cm on average (the largest 3D error, vertical mostly, is about 2 cm).
    #expect(Double(result["fixed"] as? Int ?? 0) >= 0.5 * Double(solutions), "\(result)")
    #expect((result["baselineError"] as? Double ?? .infinity) < 0.02, "\(result)")
    #expect((result["meanError"] as? Double ?? .infinity) < 0.02, "\(result)")
    #expect((result["maxError"] as? Double ?? .infinity) < 0.05, "\(result)")
  }
}
