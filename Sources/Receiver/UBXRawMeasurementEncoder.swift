import GNSSMeasurements
import Geodesy
import Simulation
import UBX

/// The raw measurement messages of a u-blox chip (RXM-RAWX and RXM-SFRBX) from the sky's
/// orbits: each epoch's measurements of the GPS, GLONASS, Galileo and BeiDou satellites the fix tracks
/// on the signals the chip's configuration enables, and each satellite's navigation message as
/// it is received (`+Subframes`).
public struct UBXRawMeasurementEncoder: Sendable {
  /// The measurement engine, over the same orbits as the sky.
  public var engine: MeasurementEngine
  /// Seconds between two epochs (`SceneSource.epochPeriodNanoseconds` keeps it current).
  public var epochPeriodSeconds: Double

  /// An encoder over `satellites` (the sky's, whose satellite clocks `seed` seeds), at an epoch
  /// period; its measurement noise and carrier ambiguities are seeded by `noiseSeed` (`seed`
  /// when nil).
  public init(
    satellites: [OrbitingSatellite], seed: UInt64, noiseSeed: UInt64? = nil,
    epochPeriodSeconds: Double = 1
  ) {
    engine = MeasurementEngine(satellites: satellites, seed: seed)
    if let noiseSeed { engine.noise = MeasurementNoise(seed: noiseSeed) }
    self.epochPeriodSeconds = epochPeriodSeconds
  }

  /// True for the chips that send raw measurements: the ZED-F9P, and `ublox-m8` as an M8T
  /// (the u-blox 8 with RXM-RAWX and RXM-SFRBX; the NEO-M8N whose banner that profile shows
  /// has no raw output, so for these two messages the profile is an M8T).
  public static func isAvailable(on profile: ReceiverProfile) -> Bool {
    [.ubloxM8, .ubloxF9].contains(profile.commandSet)
  }

  /// The RXM frames `output` switches on for the epoch with this index, measuring `signals`.
  public func frames(
    for fix: Fix, output: OutputSelection, epochIndex: Int,
    signals: [Constellation: [GNSSSignal]]
  ) -> [UBXFrame] {
    let sendsMeasurements = output.sends(ubx: .rxmRAWX, epochIndex: epochIndex)
    let sendsSubframes = output.sends(ubx: .rxmSFRBX, epochIndex: epochIndex)
    guard sendsMeasurements || sendsSubframes, fix.position.latitude.isFinite,
      fix.position.longitude.isFinite, fix.position.altitudeMeters.isFinite
    else { return [] }
    let tracked = Self.tracked(fix)
    var frames: [UBXFrame] = []
    if sendsMeasurements {
      frames.append(measurements(for: fix, tracked: tracked, signals: signals).frame)
    }
    if sendsSubframes { frames += subframes(at: fix.time, tracked: tracked) }
    return frames
  }

  /// The measurements of `signals` of the satellites a fix tracks, at its position and
  /// velocity; nil for a fix without a position.
  public func epoch(for fix: Fix, signals: [Constellation: [GNSSSignal]]) -> MeasurementEpoch? {
    guard fix.position.latitude.isFinite, fix.position.longitude.isFinite,
      fix.position.altitudeMeters.isFinite
    else { return nil }
    return epoch(for: fix, tracked: Self.tracked(fix), signals: signals)
  }

  /// The satellites measured: those with a signal of the systems with broadcast ephemerides
  /// (SBAS's GEOs are left out).
  static func tracked(_ fix: Fix) -> [SatelliteInView] {
    // Room for all at once: `filter` grows its array a doubling at a time.
    var tracked: [SatelliteInView] = []
    tracked.reserveCapacity(fix.satellites.count)
    for satellite in fix.satellites where satellite.snr != nil && satellite.constellation != .sbas {
      tracked.append(satellite)
    }
    return tracked
  }

  func epoch(
    for fix: Fix, tracked: [SatelliteInView], signals: [Constellation: [GNSSSignal]]
  ) -> MeasurementEpoch {
    let position = fix.ellipsoidalPosition
    let velocity = UbloxVelocity(fix: fix).earthCentered
    return engine(for: fix).epoch(
      at: fix.time, position: position,
      velocity: EarthCenteredPosition(x: velocity.x, y: velocity.y, z: velocity.z),
      tracked: tracked, signals: signals, epochPeriodSeconds: epochPeriodSeconds)
  }

  /// The engine as it measures `fix`: its carriers locked again when the fix's signals were
  /// (`Fix.signalsReacquired`), so that its lock times and ambiguities are those of the fix.
  public func engine(for fix: Fix) -> MeasurementEngine {
    var engine = engine
    engine.reacquiredGPSSeconds = fix.signalsReacquired.map { GPSTime($0).secondsSinceEpoch }
    return engine
  }

  /// RXM-RAWX of an epoch.
  func measurements(
    for fix: Fix, tracked: [SatelliteInView], signals: [Constellation: [GNSSSignal]]
  ) -> UBXRawMeasurements {
    let epoch = epoch(for: fix, tracked: tracked, signals: signals)
    return UBXRawMeasurements(
      receiverSecondsOfWeek: epoch.receiverSecondsOfWeek, week: epoch.week,
      leapSeconds: epoch.leapSeconds, clockWasReset: epoch.clockWasReset,
      measurements: epoch.measurements.map {
        UBXRawMeasurements.Measurement(
          system: UBXNavigationEncoder.system($0.constellation), number: $0.id,
          signalID: Self.ubloxSignalID(of: $0.signal),
          frequencyID: Int(UBXNavigationEncoder.frequencyID(of: $0.constellation, number: $0.id)),
          pseudorangeMeters: $0.pseudorangeMeters,
          carrierPhaseCycles: $0.carrierPhaseCycles, dopplerHertz: $0.dopplerHertz,
          lockTimeMilliseconds: $0.lockTimeMilliseconds, carrierToNoise: $0.carrierToNoise,
          pseudorangeSigmaMeters: $0.pseudorangeSigmaMeters,
          carrierPhaseSigmaCycles: $0.carrierPhaseSigmaCycles, dopplerSigmaHertz: 0.02)
      })
  }

  /// The u-blox signal ID (`sigId`) of each measured signal, by its raw value: NAV-SIG's of
  /// the same NMEA signal (`UBXNavigationEncoder.ubloxSignalIDs`, the ZED-F9P's signal
  /// identifiers), 0 for a signal without one.
  static let ubloxSignalIDs: [Int] = GNSSSignal.allCases.map { signal in
    let system = signal.constellation
    let nmea = UBXNavigationEncoder.measuredSignalsByNMEAID[system]?.first { $0.value == signal }
    return nmea.flatMap { UBXNavigationEncoder.ubloxSignalIDs[system]?[$0.key] }.map(Int.init) ?? 0
  }

  /// The u-blox signal ID of a signal.
  static func ubloxSignalID(of signal: GNSSSignal) -> Int { ubloxSignalIDs[signal.rawValue] }
}
