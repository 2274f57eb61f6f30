import Geodesy
import Receiver
import Replay
import Servers
import Simulation
import SystemIO

/// Everything an emulated receiver needs to start, whoever starts it: `mockgps run`, a rig, a
/// test. What only concerns the command line (log level, how a missing group is reported) stays
/// there.
public struct EmulatorConfiguration: Hashable, Sendable {
  /// Where the epochs come from (see `EmulatorConfiguration+Source.swift`).
  public enum Source: Hashable, Sendable {
    /// A receiver standing still at a position.
    case fixed(GeodeticPosition)
    /// A route driven or a recorded track played.
    case route(Route, RoutePlayback)
    /// A scenario: scripted motion and faults; with `startsNow`, moved to start at the start.
    case scenario(Scenario, startsNow: Bool)
    /// A log replayed: its bytes as recorded, at its own times (see `ReplayLoop`).
    case replay(path: String, ReplayPlayback)
  }

  /// The Royal Observatory, Greenwich: where the emulator stands when no position is given.
  public static let defaultPosition = GeodeticPosition(
    known: 51.477_928, -0.001_545, altitudeMeters: 46)
  /// The device link when none is given.
  public static let defaultLinkPath = "/dev/ttyMOCKGPS"

  public var linkPath: String
  public var source: Source
  public var cadence: CadencePlan
  public var pacing: BytePacing
  /// The slave's group, by name or number; nil leaves the pseudo-terminal's own.
  public var groupName: String?
  /// The slave's permission bits.
  public var mode: UInt32
  /// How many times as fast as the wall clock simulated time runs (`--time-scale`).
  public var timeScale: Double = 1
  /// The simulated time of the start (`--start-time`); nil starts at the wall clock's now.
  public var startTime: UTCInstant? = nil
  /// The wall clock's instant that the simulated time counts from (from its whole second, see
  /// `SimulatedTime`); nil: when the emulator is made. Emulators given the same one are at the
  /// same place of their routes at the same time: the devices of one `--config` share one. Each
  /// taking its own, two made on either side of a second's turn counted from seconds a second
  /// apart, and a moving base's rover on the same route was a second of driving off the base
  /// (a baseline of 10.5 m for 1.3 m).
  public var wallClockStart: UTCInstant? = nil
  /// The chip emulated (`--profile`): its sentences, dialect, commands and channels.
  public var profile: ReceiverProfile = .generic
  /// The satellites it sees.
  public var sky = SkySettings()
  /// The geoid its altitudes are above.
  public var geoid = GeoidChoice.egm96
  /// A real receiver passed through instead of a simulated one (`--passthrough`); `source`
  /// then gives what replaces its position (see `PassthroughSettings`).
  public var passthrough: PassthroughSettings? = nil
  /// Where the stream is also served to TCP clients (`--tcp`); port 0 picks a free one.
  public var tcp: InternetAddress? = nil
  /// Where the stream is also sent as UDP datagrams (`--udp`).
  public var udp: InternetAddress? = nil
  /// gpsd's control socket (`--gpsd-socket`, `gpsd -F PATH`): gpsd is told about the link when
  /// it exists and before it is removed (see `GpsdNotifier`); nil tells no one.
  public var gpsdSocket: String? = nil
  /// The control socket (`--control`); nil: none.
  public var control: ControlSettings? = nil
  /// What a client whose terminal is at another speed than the chip's reads
  /// (`--baud-mismatch`).
  public var baudMismatch = BaudMismatch.garble
  /// How long after each epoch's instant its first byte leaves (`--output-delay`); nil takes
  /// the profile's.
  public var outputDelay: OutputDelay? = nil
  /// A reference station at the device's fixed position (`--base`): the chip powers up in
  /// time mode there, sending RTCM 3 (u-blox 9 only).
  public var isBase = false
  /// A moving base (`--moving-base`): the chip powers up sending RTCM 4072.0, the MSM7 of
  /// GPS, GLONASS, Galileo and BeiDou and 1230 for a rover on the same vehicle (u-blox 9 only).
  public var isMovingBase = false
  /// Where the antenna sits on the vehicle the source moves (`--antenna-offset`); nil: at the
  /// source's own point.
  public var antennaOffset: AntennaOffset? = nil
  /// How fast a rover fed corrections reaches RTK float and RTK fixed (`--rtk-convergence`);
  /// its seed is the sky's.
  public var rtkConvergence = RTKConvergence()
  /// The directory that keeps the chip's flash and battery-backed RAM between runs
  /// (`--state-dir`, see `ChipStateFile`); nil keeps them for the run only.
  public var stateDirectory: String? = nil

  /// The output delay in effect: the one given, else the profile's.
  public var effectiveOutputDelay: OutputDelay { outputDelay ?? profile.outputDelay }

  /// What a client at the wrong speed reads.
  public enum BaudMismatch: String, Sendable, Hashable {
    /// What a UART at its speed makes of the chip's bytes (see `UARTLink`); what it writes
    /// reaches the chip garbled the same way.
    case garble
    /// The bytes as sent, whatever its speed.
    case clean
  }

  /// Creates a configuration with the defaults of `mockgps run`.
  public init(
    linkPath: String = Self.defaultLinkPath, source: Source = .fixed(Self.defaultPosition),
    cadence: CadencePlan = .oneHertz,
    pacing: BytePacing = .baud9600, groupName: String? = "dialout",
    mode: UInt32 = 0o660, timeScale: Double = 1,
    startTime: UTCInstant? = nil, profile: ReceiverProfile = .generic,
    sky: SkySettings = SkySettings(), geoid: GeoidChoice = .egm96
  ) {
    self.linkPath = linkPath
    self.source = source
    self.cadence = cadence
    self.pacing = pacing
    self.groupName = groupName
    self.mode = mode
    self.timeScale = timeScale
    self.startTime = startTime
    self.profile = profile
    self.sky = sky
    self.geoid = geoid
  }

  /// The source the emulator runs when simulated time starts at `start`: the source's motion
  /// and faults, under the configured sky and geoid, written by the profile's encoder with
  /// its power-up output at the configured baud, its epochs numbered at the configured rate.
  /// A chip with raw measurements under an orbital sky gets RXM-RAWX and RXM-SFRBX from that
  /// sky's orbits (sent once a client enables them), its lock times counted from `start`.
  ///
  /// - Throws: `Source.SourceError` for a route that cannot be played.
  public func makeEpochSource(simulatedStart start: UTCInstant) throws(Source.SourceError)
    -> SceneSource
  {
    var encoder = ReceiverEncoder(
      profile: profile, constellations: sky.constellations(for: profile))
    encoder.output = profile.defaultOutput(baud: pacing.baud)
    let (scene, wireFaults) = try source.makeScene(
      simulatedStart: start, sky: { sky.makeSky(for: profile, fallbackSeed: $0) })
    var world = scene
    if let antennaOffset { world.motion = OffsetAntennaMotion(world.motion, offset: antennaOffset) }
    world.geoid = geoid.model
    world.geoidSeparationMeters = geoid.constantSeparation
    if UBXRawMeasurementEncoder.isAvailable(on: profile), let orbital = world.sky as? OrbitalSky {
      // The receiver's own noise and ambiguities: two devices under one sky (a base and a
      // rover of one config) measure with independent noise, as two receivers do.
      var raw = UBXRawMeasurementEncoder(
        satellites: orbital.orbitingSatellites, seed: orbital.signalStrength.seed,
        noiseSeed: receiverNoiseSeed(orbital.signalStrength.seed))
      raw.engine.trackingStartGPSSeconds = GPSTime(start).secondsSinceEpoch
      encoder.ubx.rawMeasurements = raw
    }
    var epochs = SceneSource(scene: world, encoder: encoder, wireFaults: wireFaults)
    epochs.epochPeriodNanoseconds = cadence.periodNanoseconds
    epochs.rover.convergence = rtkConvergence
    epochs.rover.convergence.seed = sky.seed ?? source.skySeed
    epochs.seedBase(sky.seed ?? source.skySeed)
    let (settings, chip, seed) = (sky, profile, source.skySeed)
    epochs.skyTracking = { systems, sbasPRNs in
      var tracking = settings
      tracking.constellations = systems
      tracking.sbasPRNs = sbasPRNs
      return tracking.makeSky(for: chip, fallbackSeed: seed)
    }
    return epochs
  }
}

extension EmulatorConfiguration {
  /// The CFG-VALSET that makes the chip the `--base` station at its fixed position (its
  /// altitude above the geoid, the station's height above the ellipsoid), or the
  /// `--moving-base`, or nil.
  var baseStationSetup: ClientMessage? {
    if isMovingBase { return UbloxCommandHandler.movingBaseSetup }
    guard isBase, case .fixed(let position) = source else { return nil }
    let separation =
      geoid.model?.separationMeters(latitude: position.latitude, longitude: position.longitude)
      ?? geoid.constantSeparation
    let antenna = GeodeticPosition(
      known: position.latitude, position.longitude,
      altitudeMeters: position.altitudeMeters + separation)
    return UbloxCommandHandler.baseStationSetup(antenna)
  }
}

extension EmulatorConfiguration {
  /// The seed of this receiver's measurement noise and carrier ambiguities: the sky's seed
  /// mixed with the link's path (FNV-1a), so each device of a config has its own and a run
  /// repeats exactly; a receiver on the default link keeps the sky's seed, as before devices
  /// had their own.
  func receiverNoiseSeed(_ skySeed: UInt64) -> UInt64 {
    guard linkPath != Self.defaultLinkPath else { return skySeed }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in linkPath.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return skySeed ^ hash
  }
}
