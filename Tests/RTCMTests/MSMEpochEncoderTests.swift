import GNSSMeasurements
import Geodesy
import Simulation
import Testing

@testable import RTCM

/// MSMs from the measurement engine: the phase aligned to the pseudorange by whole cycles, kept
/// while they stay close, realigned with a lock time reset when they drift apart.
@Suite struct MSMEpochEncoderTests {
  static let station = SimulatedStation(
    place: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80), seed: 3)

  @Test func thePhaseLosesWholeCyclesOnlyAndStartsAtThePseudorange() throws {
    var encoder = MSMEpochEncoder(stationID: 1, kind: .msm7)
    let epoch = Self.station.epoch(second: 0)
    let message = try #require(encoder.messages(for: epoch).first)
    #expect(message.epochTime == 345_618_000)
    #expect(message.observations.count == epoch.measurements.count)
    let wavelength = GPSSignal.l1WavelengthMeters
    for (cell, measurement) in zip(
      message.observations, epoch.measurements.sorted { $0.id < $1.id })
    {
      let phase = try #require(cell.phaseRangeMeters)
      let removed = measurement.carrierPhaseCycles - phase / wavelength
      #expect(abs(removed - removed.rounded()) < 1e-6, "G\(cell.satelliteID)")
      #expect(abs(phase - measurement.pseudorangeMeters) < 2 * wavelength)
      #expect(cell.lockTimeMilliseconds == measurement.lockTimeMilliseconds)
      #expect(cell.signalID == 2)
    }
  }

  @Test func theSameCyclesAreRemovedFromEpochToEpoch() throws {
    var encoder = MSMEpochEncoder(stationID: 1, kind: .msm4)
    let wavelength = GPSSignal.l1WavelengthMeters
    var removed: [Int: Double] = [:]
    for second in 0..<5 {
      let epoch = Self.station.epoch(second: second)
      let message = try #require(encoder.messages(for: epoch).first)
      for measurement in epoch.measurements {
        let cell = try #require(message.observations.first { $0.satelliteID == measurement.id })
        let cycles = measurement.carrierPhaseCycles - (cell.phaseRangeMeters ?? 0) / wavelength
        if let earlier = removed[measurement.id] { #expect(abs(cycles - earlier) < 1e-6) }
        removed[measurement.id] = cycles
      }
    }
  }

  @Test func aPhaseDriftingAwayIsRealignedAndItsLockTimeRestarts() throws {
    var encoder = MSMEpochEncoder(stationID: 1, kind: .msm7)
    var epoch = Self.station.epoch(second: 0)
    _ = encoder.messages(for: epoch)
    let jump = (MSMEpochEncoder.realignmentMeters + 10) / GPSSignal.l1WavelengthMeters
    epoch.receiverSecondsOfWeek += 1
    epoch.measurements[0].carrierPhaseCycles += jump
    let message = try #require(encoder.messages(for: epoch).first)
    let moved = try #require(
      message.observations.first { $0.satelliteID == epoch.measurements[0].id })
    #expect(moved.lockTimeMilliseconds == 0)
    #expect(abs((moved.phaseRangeMeters ?? 0) - epoch.measurements[0].pseudorangeMeters) < 1)
    epoch.receiverSecondsOfWeek += 2
    let later = try #require(encoder.messages(for: epoch).first)
    #expect(
      later.observations.first { $0.satelliteID == moved.satelliteID }?.lockTimeMilliseconds == 2000
    )
    #expect(try MSMMessage(payload: later.payload()).observations.count == epoch.measurements.count)
  }

  /// At 23:00 UTC, GLONASS's epoch time is 02:00 of the next day in Moscow (UTC + 3 h), while
  /// the GPS MSM of the same epoch carries the GPS time of week (UTC + 18 s).
  @Test func glonassCountsTheMoscowDayAndGPSItsWeek() throws {
    var station = SimulatedStation(
      place: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80), seed: 3,
      constellations: [.gps, .glonass])
    station.signals = [.gps: [.gpsL1CA], .glonass: [.glonassL1OF]]
    // 2026-01-01 is a Thursday (day 4); 23:00 UTC is Friday (day 5) 02:00 in Moscow.
    let epoch = station.epoch(second: 23 * 3600)
    var encoder = MSMEpochEncoder(stationID: 1, kind: .msm4)
    let messages = encoder.messages(for: epoch)
    #expect(messages.map(\.messageNumber) == [1074, 1084])
    #expect(messages.first?.epochTime == (4 * 86_400 + 23 * 3600 + 18) * 1000)
    #expect(messages.last?.epochTime == 5 << 27 | 2 * 3_600_000)
    #expect(
      messages.first?.moreMessagesFollow == true && messages.last?.moreMessagesFollow == false)
  }

  /// GLONASS cells carry each slot's channel: its wavelength in the phase, and in MSM7 the
  /// channel plus 7 as the extended satellite information (MSM4 has none).
  @Test(arguments: MSMKind.allCases)
  func glonassCellsCarryTheirSlotsChannel(kind: MSMKind) throws {
    var station = SimulatedStation(
      place: GeodeticPosition(known: 48.8584, 2.2945, altitudeMeters: 80), seed: 3,
      constellations: [.glonass])
    station.signals = [.glonass: [.glonassL1OF, .glonassL2OF]]
    let epoch = station.epoch(second: 0)
    var encoder = MSMEpochEncoder(stationID: 1, kind: kind)
    let message = try #require(encoder.messages(for: epoch).first)
    #expect(message.messageNumber == 1080 + kind.rawValue)
    #expect(message.signalIDs == [2, 8])
    #expect(message.observations.count == epoch.measurements.count)
    for measurement in epoch.measurements {
      let signalID = measurement.signal == .glonassL1OF ? 2 : 8
      let cell = try #require(
        message.observations.first { $0.satelliteID == measurement.id && $0.signalID == signalID })
      let removed =
        measurement.carrierPhaseCycles - (cell.phaseRangeMeters ?? 0) / measurement.wavelengthMeters
      #expect(abs(removed - removed.rounded()) < 1e-6, "R\(measurement.id)")
      let expected = kind == .msm7 ? measurement.frequencyChannel + 7 : nil
      #expect(message.extendedSatelliteInfo[measurement.id] == expected, "R\(measurement.id)")
    }
    let decoded = try MSMMessage(payload: message.payload())
    #expect(decoded.observations.count == message.observations.count)
    #expect(kind == .msm4 || decoded.extendedSatelliteInfo == message.extendedSatelliteInfo)
  }
}
