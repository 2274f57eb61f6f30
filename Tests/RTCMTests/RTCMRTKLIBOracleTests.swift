import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import RTCM

/// A base station's RTCM 3 stream (1005, 1019, then MSM every second) solved by RTKLIB, which
/// knows nothing of mockgps: `convbin` turns it into RINEX and `rnx2rtkp`'s single-point
/// solution must land on the simulated position. The pseudoranges and the ephemerides both
/// come from this module's encoders, so an error in either (a rough range, a fine field's sign,
/// a semicircle) moves the solution by kilometres.
///
/// RTCM carries no ionospheric coefficients, so RTKLIB applies its built-in Klobuchar model;
/// the simulated sky uses the same coefficients here, so the model cancels as it does with the
/// broadcast ones in `RawMeasurementOracleTests`. Skipped when RTKLIB is missing, unless
/// MOCKGPS_REQUIRE_GPSD=1 (`scripts/test`), which makes its absence fail (`RTKLIBOracle`).
@Suite(.blocking) struct RTCMRTKLIBOracleTests {
  static let seconds = 60
  /// RTKLIB's default Klobuchar coefficients (`ion_default` of rtkcmn.c, "2004/1/1").
  static let rtklibIonosphere = KlobucharModel(
    alpha: [0.1118e-07, -0.7451e-08, -0.5961e-07, 0.1192e-06],
    beta: [0.1167e+06, -0.2294e+06, -0.1311e+06, 0.1049e+07])

  /// A place and seed.
  struct Case: Sendable, CustomTestStringConvertible {
    var position: GeodeticPosition
    var seed: UInt64
    var kind: MSMKind
    var testDescription: String { "\(kind) at \(position.latitude), \(position.longitude)" }
  }

  static let cases = [
    Case(
      position: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80), seed: 7, kind: .msm7),
    Case(
      position: GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: 40), seed: 1,
      kind: .msm4),
  ]

  @Test(
    .enabled(
      if: RTKLIBOracle.runnable,
      "RTKLIB (convbin, rnx2rtkp) is not installed: scripts/install-deps --test"),
    arguments: cases)
  func rnx2rtkpSolvesTheStreamToTheStation(_ test: Case) throws {
    var station = SimulatedStation(place: test.position, seed: test.seed)
    station.engine.ionosphere = Self.rtklibIonosphere
    let truth = station.earthCentered
    let result = try RTKLIBOracle.solve(
      try station.stream(seconds: Self.seconds, kind: test.kind),
      truth: [truth.x, truth.y, truth.z], format: ["rtcm3", SimulatedStation.startForRTKLIB],
      label: "RTCM 3 \(test)")
    let frames = try #require(result["frames"] as? [String: Int], "\(result)")
    #expect(frames["\(1070 + test.kind.rawValue)"] == Self.seconds, "\(frames)")
    #expect(frames["1005"] == 1 && (frames["1019"] ?? 0) >= 6, "\(frames)")
    #expect((result["decodeErrors"] as? [String])?.isEmpty == true, "\(result)")
    #expect(result["observationEpochs"] as? Int == Self.seconds, "\(result)")
    #expect((result["ephemerides"] as? Int ?? 0) >= 6, "\(result)")
    RTKLIBOracle.expectSolved(result, epochs: Self.seconds, meanOffsetMeters: 0.5)
  }
}
