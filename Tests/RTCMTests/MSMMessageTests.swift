import Testing

@testable import RTCM

/// MSM4 and MSM7 through the module's own decoder: values back within each field's resolution,
/// invalid fields, masks, and what does not fit. (pyrtcm checks the same bits in
/// `RTCMOracleTests`.)
@Suite struct MSMMessageTests {
  static let cells = [
    MSMMessage.Observation(
      satelliteID: 5, signalID: 2, pseudorangeMeters: 21_234_567.891,
      phaseRangeMeters: 21_234_600.123, phaseRangeRateMetersPerSecond: -512.3456,
      lockTimeMilliseconds: 64_500, carrierToNoise: 45.3),
    MSMMessage.Observation(
      satelliteID: 5, signalID: 15, pseudorangeMeters: 21_234_569.5, phaseRangeMeters: nil,
      phaseRangeRateMetersPerSecond: nil, lockTimeMilliseconds: 0, halfCycleAmbiguity: true,
      carrierToNoise: nil),
    MSMMessage.Observation(
      satelliteID: 32, signalID: 2, pseudorangeMeters: 25_999_000.25,
      phaseRangeMeters: 25_998_100.5, phaseRangeRateMetersPerSecond: 701.0049,
      lockTimeMilliseconds: 1000, carrierToNoise: 38),
  ]

  static func message(_ kind: MSMKind) -> MSMMessage {
    MSMMessage(
      system: .gps, kind: kind, stationID: 1234, epochTime: 345_618_000,
      moreMessagesFollow: true, issueOfDataStation: 5, observations: cells.reversed())
  }

  @Test(arguments: MSMKind.allCases)
  func valuesComeBackWithinTheirResolution(kind: MSMKind) throws {
    let sent = Self.message(kind)
    let decoded = try MSMMessage(payload: sent.payload())
    #expect(decoded.messageNumber == (kind == .msm7 ? 1077 : 1074))
    #expect(decoded.stationID == 1234 && decoded.epochTime == 345_618_000)
    #expect(decoded.moreMessagesFollow && decoded.issueOfDataStation == 5)
    #expect(decoded.satelliteIDs == [5, 32] && decoded.signalIDs == [2, 15])
    // Satellite 32 has no signal 15: the cell mask leaves it out.
    #expect(decoded.observations.count == 3)
    let rangeStep = (kind == .msm7 ? 0x1p-29 : 0x1p-24) * MSMMessage.metersPerMillisecond
    let phaseStep = (kind == .msm7 ? 0x1p-31 : 0x1p-29) * MSMMessage.metersPerMillisecond
    for (cell, back) in zip(sent.observations, decoded.observations) {
      #expect(back.satelliteID == cell.satelliteID && back.signalID == cell.signalID)
      #expect(abs((back.pseudorangeMeters ?? 0) - (cell.pseudorangeMeters ?? 0)) <= rangeStep / 2)
      #expect((back.phaseRangeMeters == nil) == (cell.phaseRangeMeters == nil))
      if let phase = cell.phaseRangeMeters, let backPhase = back.phaseRangeMeters {
        #expect(abs(backPhase - phase) <= phaseStep / 2)
      }
      #expect(back.halfCycleAmbiguity == cell.halfCycleAmbiguity)
      #expect((back.carrierToNoise == nil) == (cell.carrierToNoise == nil))
      if let noise = cell.carrierToNoise, let backNoise = back.carrierToNoise {
        #expect(abs(backNoise - noise) <= (kind == .msm7 ? 1.0 / 32 : 0.5))
      }
      if kind == .msm7, let rate = cell.phaseRangeRateMetersPerSecond {
        #expect(abs((back.phaseRangeRateMetersPerSecond ?? 0) - rate) <= 0.00005 + 1e-9)
      } else {
        #expect(back.phaseRangeRateMetersPerSecond == nil)
      }
    }
    #expect(decoded.observations[0].lockTimeMilliseconds == (kind == .msm7 ? 63_488 : 32_768))
  }

  @Test func msm4And7HaveTheirLengths() throws {
    // 169 header bits + 2×2 cell bits; MSM4: 18 per satellite, 48 per cell; MSM7: 36 and 80.
    #expect(try Self.message(.msm4).payload().count == (169 + 4 + 2 * 18 + 3 * 48 + 7) / 8)
    #expect(try Self.message(.msm7).payload().count == (169 + 4 + 2 * 36 + 3 * 80 + 7) / 8)
  }

  @Test func aPhaseRangeTooFarFromThePseudorangeIsRefused() {
    var cell = Self.cells[0]
    cell.phaseRangeMeters = (cell.pseudorangeMeters ?? 0) + 1500
    let message = MSMMessage(
      system: .gps, kind: .msm7, stationID: 0, epochTime: 0, observations: [cell])
    #expect {
      _ = try message.payload()
    } throws: { error in
      if case RTCMError.valueOutOfRange(let name, _) = error { return name == "fine phase range" }
      return false
    }
  }

  @Test func moreThanSixtyFourCellsAreRefused() {
    let cells = (1...33).flatMap { satellite in
      [2, 8].map {
        MSMMessage.Observation(
          satelliteID: satellite, signalID: $0, pseudorangeMeters: 2e7, phaseRangeMeters: nil,
          lockTimeMilliseconds: 0, carrierToNoise: 40)
      }
    }
    let message = MSMMessage(
      system: .gps, kind: .msm4, stationID: 0, epochTime: 0, observations: cells)
    #expect(throws: RTCMError.valueOutOfRange(name: "cell count", value: 66)) {
      _ = try message.payload()
    }
  }

  @Test func aSatelliteWithoutRangesHasAnInvalidRoughRange() throws {
    let cell = MSMMessage.Observation(
      satelliteID: 9, signalID: 2, pseudorangeMeters: nil, phaseRangeMeters: nil,
      lockTimeMilliseconds: 0, carrierToNoise: 30)
    let message = MSMMessage(
      system: .gps, kind: .msm7, stationID: 0, epochTime: 0, observations: [cell])
    let payload = try message.payload()
    // DF397 follows the 169-bit header and the 1-bit cell mask.
    var reader = RTCMBitReader(payload)
    _ = try reader.unsigned(64)
    _ = try reader.unsigned(64)
    _ = try reader.unsigned(42)
    #expect(try reader.unsigned(8) == 255)
    let decoded = try MSMMessage(payload: payload)
    #expect(decoded.observations.first?.pseudorangeMeters == nil)
  }

  @Test func everySystemsMSMNumbersAreKnown() {
    for (number, name) in [(1077, "GPS"), (1084, "GLONASS"), (1097, "Galileo"), (1124, "BeiDou")] {
      #expect(MSMSystem.system(ofMessage: number)?.0.name == name)
    }
    #expect(MSMSystem.system(ofMessage: 1075) == nil)
    #expect(MSMSystem.gps.signalID(code: "1C") == 2)
    #expect(MSMSystem.galileo.signals[14]?.code == "7I")
  }

  /// 2026-01-01 00:00:00 UTC, a Thursday: 345,618 s into the GPS week (GPS − UTC = 18 s),
  /// 345,604 s into the BeiDou week, 03:00 Moscow time on GLONASS day 4.
  @Test func eachSystemCountsItsEpochTimeInItsOwnTime() {
    let time = { (system: MSMSystem) in
      system.timeScale.epochTime(gpsSecondsOfWeek: 345_618, leapSeconds: 18)
    }
    #expect(time(.gps) == 345_618_000)
    #expect(time(.galileo) == 345_618_000)
    #expect(time(.beidou) == 345_604_000)
    #expect(time(.glonass) == 4 << 27 | 10_800_000)
    // Just after the GPS week starts, BeiDou is still in the week before.
    #expect(TimeScale.beidou.epochTime(gpsSecondsOfWeek: 5, leapSeconds: 18) == 604_791_000)
  }
}
