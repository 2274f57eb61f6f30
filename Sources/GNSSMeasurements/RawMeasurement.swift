import Simulation

/// One signal's measurements of one satellite at one epoch, as a receiver's tracking loops give
/// them (what RXM-RAWX carries).
public struct RawMeasurement: Hashable, Sendable {
  /// The satellite's system.
  public var constellation: Constellation
  /// Its number within the system.
  public var id: Int
  /// The signal.
  public var signal: GNSSSignal
  /// The GLONASS frequency channel (−7…6) the signal is on, 0 for the other systems.
  public var frequencyChannel = 0
  /// Pseudorange, meters.
  public var pseudorangeMeters: Double
  /// Carrier phase, cycles, growing with the range.
  public var carrierPhaseCycles: Double
  /// Doppler, Hz, positive when the satellite comes closer.
  public var dopplerHertz: Double
  /// Carrier-to-noise density, dB-Hz.
  public var carrierToNoise: Int
  /// How long the carrier has been tracked without a slip, milliseconds (at most 64,500).
  public var lockTimeMilliseconds: Int
  /// One-sigma pseudorange noise, meters.
  public var pseudorangeSigmaMeters: Double
  /// One-sigma carrier phase noise, cycles.
  public var carrierPhaseSigmaCycles: Double

  /// The carrier's wavelength, meters.
  public var wavelengthMeters: Double { signal.wavelengthMeters(channel: frequencyChannel) }
}

/// The measurements of one epoch with the receiver time they were taken at.
public struct MeasurementEpoch: Hashable, Sendable {
  /// The receiver's time of week when it measured, seconds (its clock's reading).
  public var receiverSecondsOfWeek: Double
  /// The GPS week.
  public var week: Int
  /// GPS − UTC, seconds.
  public var leapSeconds: Int
  /// True when the receiver stepped its clock by a millisecond since the previous epoch.
  public var clockWasReset: Bool
  /// The measurements, in the order of the satellites given.
  public var measurements: [RawMeasurement]
}
