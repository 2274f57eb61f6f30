import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import RTCM

/// RTKLIB's `convbin` reads the GLONASS of a base's stream (1005, then GPS and GLONASS MSM and
/// 1230 every second) as RINEX observations of the simulated values: with MSM7, which carries
/// each slot's channel, C1C/L1C/D1C and C2C/L2C/D2C, the phase up to whole cycles in the slot's
/// own wavelength; with MSM4 the pseudoranges only, since RTKLIB has no channel to turn a phase
/// range into cycles without a 1020 or an MSM7 (it writes no L). Skipped when RTKLIB is missing,
/// unless MOCKGPS_REQUIRE_GPSD=1 (`scripts/test`), which makes its absence fail.
@Suite(.blocking) struct GLONASSRTKLIBOracleTests {
  static let seconds = 10

  /// The stream and the simulated epochs.
  static func stream(kind: MSMKind) throws -> (bytes: [UInt8], epochs: [MeasurementEpoch]) {
    let station = GLONASSMSMOracleTests.station
    var encoder = MSMEpochEncoder(stationID: station.stationID, kind: kind)
    var bytes = RTCMFrame(payload: try station.stationReference.payload()).bytes
    let biases = GLONASSBiases(stationID: station.stationID, biasesMeters: [0, 0, 0, 0])
    var epochs: [MeasurementEpoch] = []
    for second in 0..<seconds {
      let epoch = station.epoch(second: second)
      for message in encoder.messages(for: epoch) {
        bytes += RTCMFrame(payload: try message.payload()).bytes
      }
      bytes += RTCMFrame(payload: try biases.payload()).bytes
      epochs.append(epoch)
    }
    return (bytes, epochs)
  }

  @Test(
    .enabled(
      if: RTKLIBOracle.runnable,
      "RTKLIB (convbin) is not installed: scripts/install-deps --test"),
    arguments: MSMKind.allCases)
  func convbinReadsTheSimulatedGLONASS(kind: MSMKind) throws {
    try #require(RTKLIBOracle.installed, "RTKLIB is required (MOCKGPS_REQUIRE_GPSD=1)")
    let (bytes, epochs) = try Self.stream(kind: kind)
    let result = try PythonTool.json(
      "rtklib_observations.py", input: Data(bytes),
      arguments: [SimulatedStation.startForRTKLIB])
    #expect(result["convbin"] as? Int == 0, "\(result)")
    let types = try #require((result["types"] as? [String: [String]])?["R"], "\(result)")
    let read = try #require(result["epochs"] as? [[String: Any]])
    try #require(read.count == Self.seconds, "\(read.count) epochs")
    #expect(Set(types).isSuperset(of: ["C1C", "C2C"]))
    #expect(Set(types).isDisjoint(with: ["L1C", "L2C"]) == (kind == .msm4), "\(types)")
    var cellsChecked = 0
    for (epoch, observed) in zip(epochs, read) {
      let satellites = try #require(observed["satellites"] as? [String: [String: Double]])
      for simulated in epoch.measurements where simulated.constellation == .glonass {
        let name = String(format: "R%02d", simulated.id)
        let band = simulated.signal == .glonassL1OF ? "1" : "2"
        let values = try #require(satellites[name], "\(name) in \(observed["time"] ?? "")")
        // RINEX has 3 decimals: half a millimetre, cycle or millihertz, plus the MSM's step.
        let pseudorange = try #require(values["C\(band)C"], "\(name) C\(band)C")
        let rangeStep = kind.finePseudorange.unit * MSMMessage.metersPerMillisecond
        #expect(abs(pseudorange - simulated.pseudorangeMeters) <= rangeStep / 2 + 0.0006, "\(name)")
        guard kind == .msm7 else { continue }
        let phase = try #require(values["L\(band)C"], "\(name) L\(band)C")
        let removed = simulated.carrierPhaseCycles - phase
        #expect(abs(removed - removed.rounded()) < 0.002, "\(name) L\(band)C: \(removed)")
        let doppler = try #require(values["D\(band)C"], "\(name) D\(band)C")
        #expect(abs(doppler - simulated.dopplerHertz) < 0.002, "\(name) D\(band)C")
        cellsChecked += 1
      }
    }
    #expect(kind == .msm4 || cellsChecked >= 8 * Self.seconds, "\(cellsChecked) cells")
  }
}
