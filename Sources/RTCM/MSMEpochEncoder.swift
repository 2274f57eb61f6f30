import GNSSMeasurements
import Simulation

/// Turns the measurement engine's epochs into MSMs, as a base station's receiver does.
///
/// The engine's carrier phase carries an arbitrary whole number of cycles, but an MSM can only
/// send a phase range within about ±1171 m of its satellite's rough range. Like a receiver, the
/// encoder removes a whole number of cycles from each signal's phase when it first sees it, so
/// that the phase range starts at the pseudorange, and keeps that number while the two stay
/// within `realignmentMeters`; when they drift further apart (the ionosphere moves code and
/// carrier apart) it chooses a new number, and the lock time restarts from zero, which tells a
/// rover that the phase jumped.
///
/// GLONASS goes into 1084/1087 by slot (the satellite ID), L1OF as `1C` and L2OF as `2C`, the
/// phase range in the satellite's own channel's wavelength, the epoch time in Moscow time
/// (`TimeScale.glonass`). MSM7 carries each slot's channel (plus 7) in the extended satellite
/// information; MSM4 has no room for it, so a decoder turning MSM4 phase ranges back into cycles
/// needs the channel from elsewhere (RTKLIB takes it from 1020 ephemerides, or from MSM7 seen
/// before). This encoder sends no 1020; the emulator's own rover does not need the channel, as
/// it reads only which satellites the station observed.
public struct MSMEpochEncoder: Sendable {
  /// How far the phase range may drift from the pseudorange before the phase is realigned.
  public static let realignmentMeters = 1000.0

  /// The reference station ID.
  public var stationID: Int
  /// MSM4 or MSM7.
  public var kind: MSMKind
  /// The whole cycles removed from each signal's phase and when they were chosen.
  private var alignments: [SignalKey: Alignment] = [:]

  /// A signal of a satellite.
  struct SignalKey: Hashable {
    var satelliteID: Int
    var signal: GNSSSignal
  }

  /// The cycles removed from a signal's phase since a time (seconds since the GPS epoch).
  struct Alignment {
    var cycles: Double
    var sinceSeconds: Double
  }

  /// An encoder for a station.
  public init(stationID: Int, kind: MSMKind) {
    self.stationID = stationID
    self.kind = kind
  }

  /// The MSM system and signal ID (of the signal's RINEX code in the system's table) of a
  /// measured signal. The carrier's wavelength is the measurement's own
  /// (`RawMeasurement.wavelengthMeters`): a GLONASS satellite's depends on its channel.
  public static func msmSignal(of signal: GNSSSignal) -> (system: MSMSystem, signalID: Int) {
    msmSignals[signal.rawValue]
  }

  /// `msmSignal(of:)` of every signal, by its raw value, looked up once.
  static let msmSignals: [(system: MSMSystem, signalID: Int)] = GNSSSignal.allCases.map {
    signal in
    let system: MSMSystem
    switch signal.constellation {
    case .glonass: system = .glonass
    case .galileo: system = .galileo
    case .beidou: system = .beidou
    case .gps, .sbas: system = .gps
    }
    return (system, system.signalID(code: signal.rinexCode) ?? 0)
  }

  /// The extended satellite information of MSM7 (DF419 for GLONASS: the frequency channel
  /// plus 7; reserved, 0, for the other systems) of each satellite measured.
  static func extendedSatelliteInfo(of measurements: [RawMeasurement]) -> [Int: Int] {
    var info: [Int: Int] = [:]
    for measurement in measurements where measurement.constellation == .glonass {
      info[measurement.id] = measurement.frequencyChannel + 7
    }
    return info
  }

  /// The MSMs of an epoch: one for each system measured, in the order of `MSMSystem.all`,
  /// each but the last with the multiple message bit set (more follow for the same epoch).
  public mutating func messages(for epoch: MeasurementEpoch) -> [MSMMessage] {
    let now = Double(epoch.week) * GPSSignal.secondsPerWeek + epoch.receiverSecondsOfWeek
    var cells: [MSMMessage.Observation] = []
    for measurement in epoch.measurements { cells.append(observation(of: measurement, at: now)) }
    return Self.messages(of: cells, epoch: epoch, stationID: stationID, kind: kind)
  }

  /// The MSMs of an epoch whose carrier phases have a known whole number of cycles each
  /// (`ambiguityCycles`, the measurement engine's N): taking it out leaves a phase range within
  /// twice the ionospheric delay of the pseudorange for as long as the satellite is tracked, so
  /// no state is needed between epochs and the lock time is the measurement's.
  public static func messages(
    for epoch: MeasurementEpoch, stationID: Int, kind: MSMKind,
    ambiguityCycles: (RawMeasurement) -> Double
  ) -> [MSMMessage] {
    let cells = epoch.measurements.map { measurement in
      cell(
        of: measurement, removingCycles: ambiguityCycles(measurement),
        lockTimeMilliseconds: measurement.lockTimeMilliseconds)
    }
    return messages(of: cells, epoch: epoch, stationID: stationID, kind: kind)
  }

  /// The cells of an epoch (in the order of its measurements) as one MSM per system.
  static func messages(
    of cells: [MSMMessage.Observation], epoch: MeasurementEpoch, stationID: Int, kind: MSMKind
  ) -> [MSMMessage] {
    var cellsBySystem: [String: [MSMMessage.Observation]] = [:]
    var measurementsBySystem: [String: [RawMeasurement]] = [:]
    for (measurement, cell) in zip(epoch.measurements, cells) {
      let system = Self.msmSignal(of: measurement.signal).system
      cellsBySystem[system.name, default: []].append(cell)
      measurementsBySystem[system.name, default: []].append(measurement)
    }
    let systems = MSMSystem.all.filter { cellsBySystem[$0.name] != nil }
    return systems.enumerated().map { index, system in
      MSMMessage(
        system: system, kind: kind, stationID: stationID,
        epochTime: system.timeScale.epochTime(
          gpsSecondsOfWeek: epoch.receiverSecondsOfWeek, leapSeconds: epoch.leapSeconds),
        moreMessagesFollow: index < systems.count - 1,
        extendedSatelliteInfo: kind == .msm7
          ? extendedSatelliteInfo(of: measurementsBySystem[system.name] ?? []) : [:],
        observations: cellsBySystem[system.name] ?? [])
    }
  }

  /// One measurement as a cell, its phase aligned.
  mutating func observation(of measurement: RawMeasurement, at now: Double)
    -> MSMMessage.Observation
  {
    let wavelength = measurement.wavelengthMeters
    let key = SignalKey(satelliteID: measurement.id, signal: measurement.signal)
    let phaseRange = measurement.carrierPhaseCycles * wavelength
    let drift = alignments[key].map {
      abs(phaseRange - $0.cycles * wavelength - measurement.pseudorangeMeters)
    }
    if drift == nil || drift ?? 0 > Self.realignmentMeters {
      let cycles = ((phaseRange - measurement.pseudorangeMeters) / wavelength).rounded()
      // The first alignment is where tracking starts; a later one is a jump the rover must see.
      alignments[key] = Alignment(cycles: cycles, sinceSeconds: drift == nil ? -.infinity : now)
    }
    let alignment = alignments[key] ?? Alignment(cycles: 0, sinceSeconds: -.infinity)
    let sinceAlignment =
      alignment.sinceSeconds.isFinite
      ? Int(((now - alignment.sinceSeconds) * 1000).rounded()) : Int.max
    return Self.cell(
      of: measurement, removingCycles: alignment.cycles,
      lockTimeMilliseconds: min(measurement.lockTimeMilliseconds, sinceAlignment))
  }

  /// A measurement as a cell, `cycles` whole cycles taken out of its phase.
  static func cell(
    of measurement: RawMeasurement, removingCycles cycles: Double, lockTimeMilliseconds: Int
  ) -> MSMMessage.Observation {
    let wavelength = measurement.wavelengthMeters
    return MSMMessage.Observation(
      satelliteID: measurement.id, signalID: msmSignal(of: measurement.signal).signalID,
      pseudorangeMeters: measurement.pseudorangeMeters,
      phaseRangeMeters: (measurement.carrierPhaseCycles - cycles) * wavelength,
      phaseRangeRateMetersPerSecond: -measurement.dopplerHertz * wavelength,
      lockTimeMilliseconds: lockTimeMilliseconds,
      carrierToNoise: Double(measurement.carrierToNoise))
  }
}
