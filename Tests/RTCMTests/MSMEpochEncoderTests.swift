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
}
