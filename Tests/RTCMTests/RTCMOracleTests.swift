import Foundation
import GNSSMeasurements
import Geodesy
import Simulation
import TestFixtures
import Testing

@testable import RTCM

/// What pyrtcm, an independent decoder, reads in the frames this module writes, compared with
/// the simulated values each field encodes, within the field's resolution. pyrtcm runs as a
/// process, hence `.blocking`.
@Suite(.blocking) struct RTCMOracleTests {
  static let station = SimulatedStation(
    place: GeodeticPosition(known: -33.8568, 151.2153, altitudeMeters: 40), seed: 11)
  static let millisecond = MSMMessage.metersPerMillisecond

  /// pyrtcm's reading of `frames`, with no error and every byte inside a frame.
  static func decode(_ frames: [RTCMFrame]) throws -> [[String: Any]] {
    let bytes = frames.flatMap(\.bytes)
    let result = try PythonTool.json("decode_rtcm.py", input: Data(bytes))
    #expect((result["errors"] as? [Any])?.isEmpty == true, "\(result["errors"] ?? "")")
    #expect(result["framedBytes"] as? Int == bytes.count)
    let messages = try #require(result["messages"] as? [[String: Any]])
    #expect(messages.count == frames.count)
    return messages
  }

  static func number(_ message: [String: Any], _ field: String) -> Double {
    (message[field] as? NSNumber)?.doubleValue ?? .nan
  }

  @Test func stationReferenceAndBiases() throws {
    let reference = Self.station.stationReference
    var tall = reference
    tall.antennaHeightMeters = 1.2345
    let biases = GLONASSBiases(
      stationID: 2003, biasesAligned: true, biasesMeters: [1.04, nil, -3.5])
    let frames = [
      RTCMFrame(payload: try reference.payload()), RTCMFrame(payload: try tall.payload()),
      RTCMFrame(payload: try GLONASSBiases(stationID: 2003).payload()),
      RTCMFrame(payload: try biases.payload()),
    ]
    let messages = try Self.decode(frames)
    #expect(messages.map { $0["identity"] as? String } == ["1005", "1006", "1230", "1230"])
    for message in messages[0...1] {
      #expect(message["DF003"] as? Int == 2003)
      #expect(abs(Self.number(message, "DF025") - reference.x) <= 0.00005 + 1e-9)
      #expect(abs(Self.number(message, "DF026") - reference.y) <= 0.00005 + 1e-9)
      #expect(abs(Self.number(message, "DF027") - reference.z) <= 0.00005 + 1e-9)
      #expect(message["DF022"] as? Int == 1)
    }
    #expect(abs(Self.number(messages[1], "DF028") - 1.2345) < 1e-9)
    #expect(messages[2]["DF422_1"] as? Int == 0 && messages[2]["DF422_3"] as? Int == 0)
    #expect(messages[3]["DF421"] as? Int == 1)
    #expect(messages[3]["DF422_1"] as? Int == 1 && messages[3]["DF422_2"] as? Int == 0)
    #expect(abs(Self.number(messages[3], "DF423") - 1.04) < 1e-9)
    #expect(abs(Self.number(messages[3], "DF425") - -3.5) < 1e-9)
  }

  /// The simulated pseudorange, phase (up to whole cycles), Doppler, C/N0 and lock time of every
  /// satellite, in MSM4 and MSM7.
  @Test(arguments: MSMKind.allCases)
  func msmCellsCarryTheSimulatedMeasurements(kind: MSMKind) throws {
    let epoch = Self.station.epoch(second: 0)
    var encoder = MSMEpochEncoder(stationID: 2003, kind: kind)
    let message = try #require(
      Self.decode(encoder.messages(for: epoch).map { RTCMFrame(payload: try $0.payload()) }).first)
    #expect(message["identity"] as? String == "\(1070 + kind.rawValue)")
    #expect(message["DF004"] as? Int == Int(epoch.receiverSecondsOfWeek * 1000))
    let msm = try #require(message["msm"] as? [String: Any])
    let satellites = try #require(msm["satellites"] as? [[String: Any]])
    let cells = try #require(msm["cells"] as? [[String: Any]])
    #expect(satellites.count == epoch.measurements.count && cells.count == satellites.count)
    let wavelength = GPSSignal.l1WavelengthMeters
    let rangeStep = (kind == .msm7 ? 0x1p-29 : 0x1p-24) * Self.millisecond
    let phaseStep = (kind == .msm7 ? 0x1p-31 : 0x1p-29) * Self.millisecond
    for (satellite, cell) in zip(satellites, cells) {
      let prn = try #require(Int(cell["CELLPRN"] as? String ?? ""))
      #expect(Int(satellite["PRN"] as? String ?? "") == prn)
      #expect(cell["CELLSIG"] as? String == "1C")
      let simulated = try #require(epoch.measurements.first { $0.id == prn })
      let rough = Self.number(satellite, "DF397") + Self.number(satellite, "DF398")
      let fineRange = Self.number(cell, kind == .msm7 ? "DF405" : "DF400")
      let finePhase = Self.number(cell, kind == .msm7 ? "DF406" : "DF401")
      let pseudorange = (rough + fineRange) * Self.millisecond
      #expect(abs(pseudorange - simulated.pseudorangeMeters) <= rangeStep / 2 + 1e-6, "G\(prn)")
      // The phase arrives less a whole number of cycles.
      let cycles = (rough + finePhase) * Self.millisecond / wavelength
      let removed = simulated.carrierPhaseCycles - cycles
      #expect(abs(removed - removed.rounded()) <= phaseStep / wavelength / 2 + 1e-6, "G\(prn)")
      if kind == .msm7 {
        let rate = Self.number(satellite, "DF399") + Self.number(cell, "DF404")
        #expect(abs(-rate / wavelength - simulated.dopplerHertz) <= 0.00005 / wavelength + 1e-6)
        #expect(Self.number(cell, "DF408") == Double(simulated.carrierToNoise))
        #expect(
          cell["DF407"] as? Int
            == MSMLockTime.extendedIndicator(milliseconds: simulated.lockTimeMilliseconds))
      } else {
        #expect(Self.number(cell, "DF403") == Double(simulated.carrierToNoise))
        #expect(
          cell["DF402"] as? Int
            == MSMLockTime.indicator(milliseconds: simulated.lockTimeMilliseconds))
      }
      #expect(cell["DF420"] as? Int == 0)
    }
  }

  /// A three-system, two-signal epoch: one MSM7 per system (GPS, Galileo, BeiDou in that
  /// order, the multiple message bit on all but the last, BeiDou's epoch time 14 s behind),
  /// each satellite's cells the signals measured with their RINEX codes, and each cell's
  /// pseudorange and Doppler the simulated ones.
  @Test func everySystemAndSignalInItsOwnMSM() throws {
    var station = SimulatedStation(
      place: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80), seed: 5,
      constellations: [.gps, .galileo, .beidou])
    station.signals = [
      .gps: [.gpsL1CA, .gpsL2CL], .galileo: [.galileoE1C, .galileoE5bQ],
      .beidou: [.beidouB1I, .beidouB2I],
    ]
    let epoch = station.epoch(second: 0)
    var encoder = MSMEpochEncoder(stationID: 2003, kind: .msm7)
    let messages = try Self.decode(
      encoder.messages(for: epoch).map { RTCMFrame(payload: try $0.payload()) })
    #expect(messages.map { $0["identity"] as? String } == ["1077", "1097", "1127"])
    #expect(messages.map { $0["DF393"] as? Int } == [1, 1, 0])
    let milliseconds = Int(epoch.receiverSecondsOfWeek * 1000)
    // The epoch time is DF004 for GPS, DF248 for Galileo, DF427 for BeiDou.
    let epochTimes = zip(messages, ["DF004", "DF248", "DF427"]).map { $0[$1] as? Int }
    #expect(epochTimes == [milliseconds, milliseconds, milliseconds - 14_000])
    let systems: [(Constellation, [String: Any])] = zip(
      [Constellation.gps, .galileo, .beidou], messages
    ).map { ($0, $1) }
    var cellsRead = 0
    for (constellation, message) in systems {
      let msm = try #require(message["msm"] as? [String: Any])
      let cells = try #require(msm["cells"] as? [[String: Any]])
      let satellites = try #require(msm["satellites"] as? [[String: Any]])
      let measured = epoch.measurements.filter { $0.constellation == constellation }
      #expect(
        Set(cells.map { "\($0["CELLPRN"] as? String ?? "")/\($0["CELLSIG"] as? String ?? "")" })
          == Set(measured.map { String(format: "%03d/", $0.id) + $0.signal.rinexCode }))
      #expect(measured.contains { $0.signal.index == 1 }, "\(constellation): a second signal")
      for cell in cells {
        let prn = try #require(Int(cell["CELLPRN"] as? String ?? ""))
        let simulated = try #require(
          measured.first { $0.id == prn && $0.signal.rinexCode == cell["CELLSIG"] as? String })
        let satellite = try #require(
          satellites.first { Int($0["PRN"] as? String ?? "") == prn })
        let rough = Self.number(satellite, "DF397") + Self.number(satellite, "DF398")
        let pseudorange = (rough + Self.number(cell, "DF405")) * Self.millisecond
        #expect(abs(pseudorange - simulated.pseudorangeMeters) < 0.001, "\(simulated)")
        let rate = Self.number(satellite, "DF399") + Self.number(cell, "DF404")
        let wavelength = simulated.signal.wavelengthMeters
        #expect(abs(-rate / wavelength - simulated.dopplerHertz) < 0.001 / wavelength + 1e-6)
        cellsRead += 1
      }
    }
    #expect(cellsRead == epoch.measurements.count)
  }

  /// Every field of 1019 against the broadcast ephemeris (angles in semicircles on the wire).
  @Test func ephemerisFieldsAreTheBroadcastOnes() throws {
    let epoch = Self.station.epoch(second: 0)
    let gpsSeconds = Double(epoch.week) * GPSSignal.secondsPerWeek + epoch.receiverSecondsOfWeek
    let ephemerides = epoch.measurements.compactMap {
      Self.station.engine.ephemeris(number: $0.id, atGPSSeconds: gpsSeconds)
    }
    let messages = try Self.decode(
      ephemerides.map { RTCMFrame(payload: GPSEphemerisMessage($0).payload()) })
    for (ephemeris, message) in zip(ephemerides, messages) {
      #expect(message["identity"] as? String == "1019")
      #expect(message["DF009"] as? Int == ephemeris.prn)
      #expect(message["DF076"] as? Int == ephemeris.week % 1024)
      #expect(message["DF071"] as? Int == ephemeris.issueOfData)
      #expect(message["DF085"] as? Int == ephemeris.issueOfData)
      // Each value is a multiple of its unit, so the comparisons are exact.
      let expected: [(String, Double)] = [
        ("DF092", ephemeris.squareRootOfSemiMajorAxis), ("DF090", ephemeris.eccentricity),
        ("DF088", ephemeris.meanAnomalyRadians / .pi),
        ("DF095", ephemeris.rightAscensionRadians / .pi),
        ("DF097", ephemeris.inclinationRadians / .pi),
        ("DF099", ephemeris.argumentOfPerigeeRadians / .pi),
        ("DF100", ephemeris.rateOfRightAscensionRadiansPerSecond / .pi),
        ("DF084", ephemeris.clockBiasSeconds), ("DF083", ephemeris.clockDriftSecondsPerSecond),
        ("DF093", ephemeris.referenceSecondsOfWeek), ("DF081", ephemeris.referenceSecondsOfWeek),
      ]
      for (field, value) in expected {
        #expect(
          abs(Self.number(message, field) - value) <= abs(value) * 1e-12,
          "\(field) G\(ephemeris.prn)")
      }
    }
  }
}
