import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import RTCM

/// GLONASS MSM (1084, 1087) read by pyrtcm against the simulated measurements: cells by slot
/// with L1 and L2 C/A as `1C` and `2C`, the epoch time as a day of the week and milliseconds of
/// the Moscow day (DF416, DF034), the phase in each slot's own channel's wavelength, and in
/// MSM7 the channel plus 7 (DF419). pyrtcm runs as a process, hence `.blocking`.
@Suite(.blocking) struct GLONASSMSMOracleTests {
  static let millisecond = MSMMessage.metersPerMillisecond

  /// A station under GPS and GLONASS measuring GPS L1 and GLONASS L1 and L2.
  static let station: SimulatedStation = {
    var station = SimulatedStation(
      place: GeodeticPosition(known: 55.7558, 37.6173, altitudeMeters: 150), seed: 13,
      constellations: [.gps, .glonass])
    station.signals = [.gps: [.gpsL1CA], .glonass: [.glonassL1OF, .glonassL2OF]]
    return station
  }()

  @Test(arguments: MSMKind.allCases)
  func eachSlotsCellsUseItsChannelsWavelength(kind: MSMKind) throws {
    let epoch = Self.station.epoch(second: 30)
    let measured = epoch.measurements.filter { $0.constellation == .glonass }
    #expect(Set(measured.map(\.frequencyChannel)).count >= 3, "channels differ between slots")
    var encoder = MSMEpochEncoder(stationID: 2003, kind: kind)
    let messages = try RTCMOracleTests.decode(
      encoder.messages(for: epoch).map { RTCMFrame(payload: try $0.payload()) })
    #expect(
      messages.map { $0["identity"] as? String } == ["107", "108"].map { "\($0)\(kind.rawValue)" })
    let message = messages[1]
    // 2026-01-01 00:00:30 UTC is Thursday 03:00:30 in Moscow.
    #expect(message["DF416"] as? Int == 4)
    #expect(message["DF034"] as? Int == 10_830_000)
    let msm = try #require(message["msm"] as? [String: Any])
    let satellites = try #require(msm["satellites"] as? [[String: Any]])
    let cells = try #require(msm["cells"] as? [[String: Any]])
    #expect(satellites.count == Set(measured.map(\.id)).count)
    #expect(cells.count == measured.count)
    let rangeStep = kind.finePseudorange.unit * Self.millisecond
    let phaseStep = kind.finePhaseRange.unit * Self.millisecond
    for cell in cells {
      let slot = try #require(Int(cell["CELLPRN"] as? String ?? ""))
      let code = cell["CELLSIG"] as? String
      let simulated = try #require(
        measured.first { $0.id == slot && $0.signal.rinexCode == code }, "R\(slot) \(code ?? "")")
      let satellite = try #require(satellites.first { Int($0["PRN"] as? String ?? "") == slot })
      let rough =
        RTCMOracleTests.number(satellite, "DF397")
        + RTCMOracleTests.number(satellite, "DF398")
      let fineRange = RTCMOracleTests.number(cell, kind == .msm7 ? "DF405" : "DF400")
      let finePhase = RTCMOracleTests.number(cell, kind == .msm7 ? "DF406" : "DF401")
      let pseudorange = (rough + fineRange) * Self.millisecond
      #expect(abs(pseudorange - simulated.pseudorangeMeters) <= rangeStep / 2 + 1e-6, "R\(slot)")
      // Whole cycles of the slot's own wavelength are taken out of the phase, nothing else.
      let wavelength = simulated.wavelengthMeters
      let cycles = (rough + finePhase) * Self.millisecond / wavelength
      let removed = simulated.carrierPhaseCycles - cycles
      #expect(
        abs(removed - removed.rounded()) <= phaseStep / wavelength / 2 + 1e-6,
        "R\(slot) \(code ?? ""): \(removed)")
      guard kind == .msm7 else { continue }
      #expect(satellite["DF419"] as? Int == simulated.frequencyChannel + 7, "R\(slot)")
      let rate = RTCMOracleTests.number(satellite, "DF399") + RTCMOracleTests.number(cell, "DF404")
      #expect(abs(-rate / wavelength - simulated.dopplerHertz) <= 0.00005 / wavelength + 1e-6)
    }
  }
}
