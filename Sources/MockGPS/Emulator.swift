import Control
import DeviceRuntime
import DeviceSources
import DeviceTerminal
import Geodesy
import Glibc
import InputFiles
import Passthrough
import Receiver
import Replay
import RouteFiles
import Servers
import Simulation
import Synchronization
import SystemIO

/// One running emulated receiver: a pseudo-terminal published under a stable link, fed with
/// epochs from a source.
///
/// Use it from tests or a rig to change the position at run time without restarting anything.
/// `stop()` may be called any number of times and from any thread.
public final class Emulator: Sendable {
  private enum Lifecycle {
    case created, running, stopped
  }

  /// What it was started with.
  public let configuration: EmulatorConfiguration
  /// The pseudo-terminal and its clients.
  public let device: SerialDevice
  /// The published device name and the slave it points to.
  public let link: DeviceLink
  /// What produces the bytes: a simulated receiver, a log's replay or a real receiver.
  private let source: any DeviceSource
  private let log: Log
  private let lifecycle = Mutex(Lifecycle.created)
  /// The runtime the emulator made for itself, stopped with it (none when one was given).
  private let privateRuntime: EmulatorRuntime?
  /// The TCP and UDP outputs, from `start()` to `stop()`.
  private let network = Mutex<NetworkOutputs?>(nil)
  /// The control protocol's state (see `Emulator+Control.swift`).
  let controlState = EmulatorControlState()
  /// Where the chip's non-volatile memory is kept (`--state-dir`), flushed at `stop()`.
  private let chipStateFile: ChipStateFile?

  /// Why the emulator could not start.
  public enum StartError: Error, CustomStringConvertible {
    case link(DeviceLink.CreationError)
    case system(SystemError)
    case unknownGroup(String)
    /// The rate and the time scale would send more epochs a second than the wire allows.
    case tooFast(WireRateLimit.TooFastError)
    /// The route or scenario cannot be played.
    case source(EmulatorConfiguration.Source.SourceError)
    /// The real receiver of `--passthrough` cannot be opened.
    case passthrough(PassthroughOpenError)
    /// The chip's state file (`--state-dir`) cannot be used: a missing or unsafe directory
    /// (exit 66), a file that is not this chip's state (exit 65).
    case chipState(InputFileError)

    public var description: String {
      switch self {
      case .link(let error): return error.description
      case .system(let error): return error.description
      case .unknownGroup(let name): return "no group '\(name)' on this system"
      case .tooFast(let error): return error.description
      case .source(let error): return error.description
      case .passthrough(let error): return error.description
      case .chipState(let error): return error.description
      }
    }

    /// A suggestion for the person, or nil.
    public var hint: String? {
      switch self {
      case .link(let error): return error.hint
      case .tooFast: return "lower --rate or --time-scale"
      default: return nil
      }
    }
  }

  /// Opens the pseudo-terminal, publishes the link and gives the slave the group and mode of a
  /// serial port. Call `start()` to begin sending.
  ///
  /// Every descriptor opened here is owned: on any failure, all of them are closed. A rate and
  /// time scale beyond `WireRateLimit` are refused before anything is opened; the log of a
  /// `.replay` source is opened (by a `ReplayReader`) before anything else too.
  ///
  /// Client messages go to `commandHandler`, by default the profile's chip; either way each is
  /// logged at debug level. The profile's power-up sentences go out each time a client opens
  /// the device that no client had open, before the next epoch: as a USB receiver powers up
  /// when it is plugged in, and so that the client sees them (nothing is sent with no client).
  ///
  /// A live receiver's epochs are steps on `runtime`'s scheduler thread, shared with the other
  /// emulators on it, and read its clock (`clock` is then unused); without one, the emulator
  /// makes a runtime of its own on `clock` and stops it with itself. So do a replay and a
  /// passthrough (the real receiver is read on the runtime's I/O thread).
  public convenience init(
    configuration: EmulatorConfiguration, log: Log,
    commandHandler: (any ReceiverCommandHandler)? = nil, clock: any UTCClock = SystemUTCClock(),
    runtime: EmulatorRuntime? = nil
  ) throws(StartError) {
    if let settings = configuration.passthrough {
      try self.init(
        passthrough: settings, configuration, log: log, clock: clock, runtime: runtime)
      return
    }
    guard case .replay(let path, let playback) = configuration.source else {
      try self.init(
        live: configuration, log: log, commandHandler: commandHandler, clock: clock,
        runtime: runtime)
      return
    }
    let reader: ReplayReader
    do {
      reader = try ReplayReader(path: path, options: playback.options)
    } catch {
      throw .source(.log(error))
    }
    try self.init(
      configuration: configuration, replaying: reader, log: log, clock: clock, runtime: runtime)
  }

  /// Opens the pseudo-terminal and publishes the link, as the other initializer does, for a
  /// replay of `source`'s epochs (see `ReplayLoop`), with the playback of a `.replay` source
  /// (else the default: start at once). The profile, rate, sky and start time do not apply:
  /// the log is the receiver, and what clients write is logged and never answered.
  ///
  /// The bytes are paced at `configuration.pacing`; the line settings show its baud, or with
  /// `--baud 0` the log's `# Serial:` speed (else 38400).
  ///
  /// The replay's steps run on `runtime`'s scheduler thread and read its clock, as a live
  /// receiver's do (see the other initializer).
  public init(
    configuration: EmulatorConfiguration, replaying source: sending any ReplayEpochSource,
    log: Log, clock: any UTCClock = SystemUTCClock(), runtime given: EmulatorRuntime? = nil
  ) throws(StartError) {
    var playback = ReplayPlayback()
    if case .replay(_, let given) = configuration.source { playback = given }
    let lineBaud =
      configuration.pacing.baud != 0
      ? configuration.pacing.baud : source.header.serial?.baud ?? 38_400
    self.configuration = configuration
    self.log = log
    chipStateFile = nil
    let running = LateReference<ReplayLoop>()
    let runtime = try Self.runtime(given, clock: clock)
    privateRuntime = given == nil ? runtime : nil
    let device = try Self.openDevice(
      configuration, log: log, stoppingOnFailure: privateRuntime,
      makeDevice: { () throws(SystemError) in
        try SerialDevice(
          baud: lineBaud, log: log, handler: LoggingCommandHandler(log: log),
          firstClientArrived: { running.withLock { $0?.clientArrived() } },
          discardsUnreadWhenClientsJoin: false, io: runtime.io,
          nodeWatchers: runtime.nodeWatchers,
          // What clients write is read at the line's pace compressed as the log's time is,
          // as a simulated chip's (without it, 960 bytes a second at 9600 baud whatever
          // `--time-scale`), and unpaced when the output is (`--baud 0`: the line's speed is
          // then only the terminal's, the log's or 38,400).
          timeScale: configuration.timeScale,
          pacesClientInput: configuration.pacing.baud != 0, inMemory: runtime.devicesInMemory)
      })
    (self.device, link) = device
    let linkGuard = LinkGuard(link: link, log: log)
    let plan = ReplayLoop.Plan(
      pacing: configuration.pacing, timeScale: configuration.timeScale,
      settleAfterFirstClientNanoseconds: playback.waitsForClient
        ? Int64((playback.settleSeconds * 1e9).rounded()) : nil)
    let loop = ReplayLoop(
      plan: plan, source: source, device: self.device, log: log, runtime: runtime,
      afterEpoch: { linkGuard.checkIfDue(now: $0) })
    running.set(loop)
    self.source = loop
  }

  private init(
    live configuration: EmulatorConfiguration, log: Log,
    commandHandler: (any ReceiverCommandHandler)?, clock: any UTCClock,
    runtime given: EmulatorRuntime?
  ) throws(StartError) {
    do {
      try WireRateLimit.check(configuration.cadence, timeScale: configuration.timeScale)
    } catch {
      throw .tooFast(error)
    }
    // The source before anything is opened: a route that cannot play touches no device.
    let clock = given?.clock ?? clock
    var time = SimulatedTime(
      start: configuration.startTime ?? configuration.source.originalStartTime,
      scale: configuration.timeScale, wireNow: configuration.wallClockStart ?? clock.now())
    // Every epoch leaves at least the output delay's shortest after its instant.
    let outputDelay = configuration.effectiveOutputDelay
    time.wireOrigin = time.wireOrigin.adding(
      nanoseconds: time.wireNanoseconds(ofSimulated: outputDelay.earliestNanoseconds))
    let source: SceneSource
    do {
      source = try configuration.makeEpochSource(simulatedStart: time.simulatedOrigin)
    } catch {
      throw .source(error)
    }
    var (chip, chipStateFile, storedSettings) = try Self.chip(
      configuration, log: log, given: commandHandler)
    // The sky and the rover follow the chip's settings from the first epoch (factory or saved).
    storedSettings += chip.powerUpEffects
    self.configuration = configuration
    self.log = log
    self.chipStateFile = chipStateFile
    let running = LateReference<EpochLoop>()
    let runtime = try Self.runtime(given, clock: clock)
    privateRuntime = given == nil ? runtime : nil
    let device = try Self.openDevice(
      configuration, log: log, stoppingOnFailure: privateRuntime,
      makeDevice: { () throws(SystemError) in
        try SerialDevice(
          baud: configuration.pacing.baud, log: log,
          handler: LoggingCommandHandler(log: log, chip: chip),
          effects: { effects, arrived in
            running.withLock { $0?.apply(effects, arrivedNanoseconds: arrived) }
          },
          firstClientArrived: { running.withLock { $0?.powerUp() } },
          garblesMismatchedSpeeds: configuration.baudMismatch == .garble, io: runtime.io,
          nodeWatchers: runtime.nodeWatchers,
          monotonicNanoseconds: runtime.scheduler.monotonicNanoseconds,
          timeScale: configuration.timeScale, inMemory: runtime.devicesInMemory)
      })
    (self.device, link) = device
    let linkGuard = LinkGuard(link: link, log: log)
    var plan = EpochLoop.Plan(
      scheduler: EpochScheduler(
        cadence: configuration.cadence, timeScale: configuration.timeScale),
      pacing: configuration.pacing, source: source, time: time)
    plan.outputDelay = outputDelay
    plan.outputDelaySeed = configuration.sky.seed ?? configuration.source.skySeed
    let loop = EpochLoop(
      plan: plan, device: self.device, log: log, runtime: runtime,
      processingNanoseconds: configuration.profile.commandProcessingNanoseconds,
      powerUpSentences: configuration.profile.powerUpSentences,
      afterEpoch: { linkGuard.checkIfDue(now: $0) })
    running.set(loop)
    self.source = loop
    // What the chip changes in its source after a control request must outlast the next
    // request, which builds the source anew from the controls' base.
    loop.followChipChanges { [controlState] change, restartedAt in
      controlState.scene.withLock { $0.controls?.changeBase(change, restartedAt: restartedAt) }
    }
    // The settings the chip loaded from its saved memory, and the sky its settings track, hold
    // from the first epoch.
    if !storedSettings.isEmpty { loop.apply(storedSettings) }
  }

  /// The chip of a live receiver: `given`, or the profile's in its power-up state; with a
  /// `--state-dir`, one that loaded its saved memory (with the effects of what it loaded) and
  /// saves it again.
  private static func chip(
    _ configuration: EmulatorConfiguration, log: Log, given: (any ReceiverCommandHandler)?
  ) throws(StartError) -> (any ReceiverCommandHandler, ChipStateFile?, [ReceiverEffect]) {
    var chip =
      given
      ?? configuration.profile.makeCommandHandler(
        baud: configuration.pacing.baud,
        periodMilliseconds: Int(configuration.cadence.periodNanoseconds / 1_000_000),
        constellations: configuration.sky.constellations(for: configuration.profile))
    let setup = configuration.baseStationSetup
    guard let directory = configuration.stateDirectory,
      let stateful = chip as? any StatefulCommandHandler
    else {
      // Set up first: the chip returned is the one the setup changed.
      let effects = setup.map { apply($0, to: &chip) } ?? []
      return (chip, nil, effects)
    }
    do {
      let file = try ChipStateFile(directory: directory, link: configuration.linkPath, log: log)
      let (persisting, effects) = try persisting(
        stateful, file: file, profileName: configuration.profile.name, setup: setup, log: log)
      return (persisting, file, effects)
    } catch {
      throw .chipState(error)
    }
  }

  /// What a configuration the emulator writes into `chip` (`--base`'s) does, but the
  /// acknowledgement.
  private static func apply(_ setup: ClientMessage, to chip: inout some ReceiverCommandHandler)
    -> [ReceiverEffect]
  {
    chip.handle(setup).filter { if case .reply = $0 { false } else { true } }
  }

  /// `chip` powered up from what `file` holds, then given `setup` (`--base`'s, over what was
  /// restored, and not saved for it: a later run without it is no station unless a client
  /// saved its settings), saving to the file from now on; a warning in `log` names each stored
  /// item it left out for its value.
  private static func persisting<Chip: StatefulCommandHandler>(
    _ chip: Chip, file: ChipStateFile, profileName: String, setup: ClientMessage?, log: Log
  ) throws(InputFileError) -> (any ReceiverCommandHandler, [ReceiverEffect]) {
    var chip = chip
    var effects: [ReceiverEffect] = []
    if let state = try file.load(profileName: profileName) {
      do {
        effects = try chip.powerUp(restoring: state)
      } catch {
        throw file.invalid(error)
      }
      for refused in chip.takeRefusedItems() { log.warning("\(file.invalid(refused))") }
    }
    if let setup { effects += apply(setup, to: &chip) }
    return (PersistingCommandHandler(chip: chip, file: file), effects)
  }

  /// Opens the real receiver of `--passthrough` first (at its baud, or the first rate `auto`
  /// tries), then the pseudo-terminal at that baud, whose client messages are only logged:
  /// the real chip answers them. Both are served by `runtime` (see the other initializers).
  private init(
    passthrough settings: PassthroughSettings, _ configuration: EmulatorConfiguration, log: Log,
    clock: any UTCClock, runtime given: EmulatorRuntime?
  ) throws(StartError) {
    let clock = given?.clock ?? clock
    let override: PositionOverride
    // Given a config's start, from its whole second, as the live devices beside it count.
    let sharedStart = configuration.wallClockStart.map {
      SimulatedTime(start: nil, scale: 1, wireNow: $0).simulatedOrigin
    }
    do {
      override = try settings.positionOverride(
        source: configuration.source,
        start: configuration.startTime ?? sharedStart ?? clock.now())
    } catch {
      throw .source(error)
    }
    let receiver = PassthroughReceiver(target: settings.target)
    let baud = settings.baud ?? GNSSDataDetector.candidateBauds[0]
    let path: String
    do {
      path = try receiver.connect(baud: baud)
    } catch {
      throw .passthrough(error)
    }
    self.configuration = configuration
    self.log = log
    chipStateFile = nil
    let running = LateReference<PassthroughLoop>()
    let runtime: EmulatorRuntime
    do {
      runtime = try Self.runtime(given, clock: clock)
    } catch {
      receiver.disconnect()
      throw error
    }
    privateRuntime = given == nil ? runtime : nil
    do {
      (device, link) = try Self.openDevice(
        configuration, log: log, stoppingOnFailure: privateRuntime,
        makeDevice: { () throws(SystemError) in
          try SerialDevice(
            baud: baud, log: log, handler: LoggingCommandHandler(log: log),
            clientBytesTap: { bytes in running.withLock { $0?.clientSent(bytes) } },
            io: runtime.io, nodeWatchers: runtime.nodeWatchers,
            monotonicNanoseconds: runtime.scheduler.monotonicNanoseconds,
            inMemory: runtime.devicesInMemory)
        })
    } catch {
      receiver.disconnect()
      throw error
    }
    let loop = PassthroughLoop(
      receiver: receiver, baud: baud, fixedBaud: settings.baud, override: override,
      device: device, log: log, runtime: runtime)
    running.set(loop)
    self.source = loop
    log.debug("opened '\(path)' at \(baud) baud")
  }

  /// Opens the device, publishes its link and sets its permissions; on failure closes what
  /// was opened.
  private static func openDevice(
    _ configuration: EmulatorConfiguration, log: Log,
    stoppingOnFailure privateRuntime: EmulatorRuntime? = nil,
    makeDevice: () throws(SystemError) -> SerialDevice
  ) throws(StartError) -> (SerialDevice, DeviceLink) {
    do {
      return try openDevice(configuration, log: log, makeDevice: makeDevice)
    } catch {
      privateRuntime?.stop()
      throw error
    }
  }

  /// The runtime given, or a new one of the emulator's own on `clock`.
  private static func runtime(_ given: EmulatorRuntime?, clock: any UTCClock)
    throws(StartError) -> EmulatorRuntime
  {
    if let given { return given }
    do {
      return try EmulatorRuntime(clock: clock)
    } catch {
      throw .system(error)
    }
  }

  private static func openDevice(
    _ configuration: EmulatorConfiguration, log: Log,
    makeDevice: () throws(SystemError) -> SerialDevice
  ) throws(StartError) -> (SerialDevice, DeviceLink) {
    let device: SerialDevice
    do {
      device = try makeDevice()
    } catch {
      throw .system(error)
    }
    // The terminal gets its permissions before its link: a terminal changed after its link
    // looks like a stranger's that took a freed number (`TerminalIdentity.ownership`). What
    // could not be changed is said once the link stands: a link that cannot be made is the
    // one error then.
    let permissionWarning: String?
    do {
      permissionWarning = try Self.setPermissions(of: device, configuration)
    } catch {
      device.close()
      throw error
    }
    let link: DeviceLink
    do {
      link = try Self.publish(device, at: configuration.linkPath)
    } catch {
      device.close()
      throw error
    }
    if let permissionWarning { log.warning(permissionWarning) }
    return (device, link)
  }

  private static func publish(_ device: SerialDevice, at path: String) throws(StartError)
    -> DeviceLink
  {
    do {
      return try DeviceLink.create(at: path, pointingTo: device.slavePath)
    } catch {
      throw .link(error)
    }
  }

  /// Gives the terminal its group and mode; a warning when they could not be set.
  private static func setPermissions(
    of device: SerialDevice, _ configuration: EmulatorConfiguration
  ) throws(StartError) -> String? {
    var groupID: UInt32?
    if let name = configuration.groupName {
      groupID = Groups.groupID(named: name)
      if groupID == nil { throw .unknownGroup(name) }
    }
    do {
      try device.setPermissions(groupID: groupID, mode: configuration.mode)
      return nil
    } catch {
      return "\(error); clients may need to run as this user"
    }
  }

  /// A warning when a second's epochs do not fit at the configured baud (`EpochBudget`),
  /// else nil: they are made from now on, the once-a-second sentences (GSV) included.
  ///
  /// The time scale changes nothing here: it shortens the period and the line time alike.
  /// A replay has none: its epochs are what the log holds. The second is the runtime's clock's
  /// (a manual clock's in a test): how many satellites the GSV describes depends on it.
  public var budgetWarning: String? {
    guard let loop = liveLoop else { return nil }
    let source = loop.plan.withLock { $0.source }
    let start = loop.simulatedNow()
    let cadence = configuration.cadence
    let bytes = (0..<EpochBudget.epochsPerSecond(cadence)).map { index in
      source.epoch(at: start.adding(nanoseconds: Int64(index) * cadence.periodNanoseconds))
        .byteCount
    }
    return EpochBudget(epochByteCounts: bytes, pacing: configuration.pacing, cadence: cadence)
      .warning
  }

  /// Starts reading from clients and sending epochs; does nothing after `stop()`.
  ///
  /// - Throws: `SystemError` when a thread cannot be started.
  public func start() throws(SystemError) {
    let starting = lifecycle.withLock { lifecycle in
      guard lifecycle == .created else { return false }
      lifecycle = .running
      return true
    }
    guard starting else { return }
    try startControl()
    try device.start()
    try startNetworkOutputs()
    try source.start()
    gpsdNotifier?.announce(log: log)
  }

  /// What tells the gpsd of `configuration.gpsdSocket` about the link, or nil.
  private var gpsdNotifier: GpsdNotifier? {
    configuration.gpsdSocket.map { GpsdNotifier(socketPath: $0, linkPath: link.path) }
  }

  /// Opens the outputs the configuration asks for (`tcp`, `udp`) and feeds them every epoch.
  private func startNetworkOutputs() throws(SystemError) {
    guard
      let outputs = try NetworkOutputs(
        tcp: configuration.tcp, udp: configuration.udp, io: device.io, log: log)
    else { return }
    network.withLock { $0 = outputs }
    try outputs.start(listeners: source.transmitter.listeners)
  }

  /// The TCP output (`configuration.tcp`) once started: its address (with the port picked for
  /// port 0) and counters.
  public var tcpOutput: TCPOutput? { network.withLock { $0?.tcp } }

  /// The UDP output (`configuration.udp`) once started.
  public var udpOutput: UDPOutput? { network.withLock { $0?.udp } }

  /// Moves the receiver to a new fixed position from the next epoch on.
  public func setPosition(_ position: GeodeticPosition) {
    updateScene { $0.motion = FixedPosition(position) }
  }

  /// Replaces the scene (motion, sky, faults) from the next epoch on.
  public func setScene(_ scene: Scene) {
    updateScene { $0 = scene }
  }

  /// Replaces the source of the epochs from the next epoch on; a replay is left alone.
  public func setSource(_ source: any EpochSource) {
    replaceSource { $0.source = source }
  }

  /// Changes the scene of a scene source from the next epoch on; other sources (and a replay)
  /// are left alone.
  private func updateScene(_ change: (inout Scene) -> Void) {
    replaceSource { plan in
      guard var source = plan.source as? SceneSource else { return }
      change(&source.scene)
      plan.source = source
    }
  }

  /// Changes the plan's source and forgets the controls in one hold of the plan's lock: a
  /// control request answered between the two would otherwise store controls built on the
  /// source replaced, and the next request would bring that source back.
  private func replaceSource(_ change: (inout EpochLoop.Plan) -> Void) {
    guard let loop = liveLoop else { return controlState.reset() }
    loop.changePlan { plan in
      change(&plan)
      controlState.reset()
    }
  }

  /// True once the source has played to its end: an epoch at or after its `endTime` was sent,
  /// or the last epoch of a replayed log (never while it loops). A live emulator goes on
  /// sending (the source decides what) until it is stopped; a replay sends nothing more.
  public var isFinished: Bool { source.finished.isSet }

  /// Runs `action` once, when the source has played to its end (see `isFinished`): on the
  /// epoch thread, or at once on the calling thread when it already has. Keep it short, and do
  /// not stop the emulator from it: wake the thread that will.
  public func onFinished(_ action: @escaping @Sendable () -> Void) {
    source.finished.whenSet(action)
  }

  /// Waits until the clients have read what was sent, or `milliseconds` have passed, so that a
  /// run that ends by itself (`--once`) does not take its last epoch away with the device.
  /// Returns whether everything was read.
  @discardableResult
  public func waitUntilClientsHaveRead(milliseconds: Int) -> Bool {
    let deadline = SystemClock.monotonicNanoseconds() + Int64(milliseconds) * 1_000_000
    // Bytes written to the master reach the slave's queue a moment later (the kernel pushes
    // them from a work queue, and about 10 KiB more wait there while the client's 4 KiB are full),
    // so an empty queue is only believed when it is seen twice, a pause apart.
    var emptyLooks = 0
    repeat {
      usleep(20_000)
      emptyLooks = device.unreadByteCount == 0 ? emptyLooks + 1 : 0
      if emptyLooks == 2 { return true }
    } while SystemClock.monotonicNanoseconds() < deadline
    return false
  }

  /// Calls `handler` on the epoch thread for every epoch as it falls due, whole, whether or not
  /// a client has the device open (a passthrough's: what its receiver sent, grouped into
  /// epochs). It must not block. Returns a token for `removeEpochListener`.
  ///
  /// A handler that reads only `fix` (`needsPackets` false) gets, from a simulated receiver
  /// that no client has open, epochs without packets: it does not make the receiver encode
  /// them.
  @discardableResult
  public func addEpochListener(
    needsPackets: Bool = true, _ handler: @escaping @Sendable (DueEpoch) -> Void
  ) -> EpochListeners.Token? {
    source.transmitter.listeners.add(needsPackets: needsPackets, handler)
  }

  /// Stops calling a handler added by `addEpochListener`.
  public func removeEpochListener(_ token: EpochListeners.Token) {
    source.transmitter.listeners.remove(token)
  }

  /// The epoch loop of a simulated receiver, for the control protocol; nil otherwise.
  var liveLoop: EpochLoop? { source as? EpochLoop }

  /// The replay loop of a log's replay, for the control protocol; nil otherwise.
  var replayLoop: ReplayLoop? { source as? ReplayLoop }

  /// The loop of a passed-through receiver, for the control protocol; nil otherwise.
  var passthroughLoop: PassthroughLoop? { source as? PassthroughLoop }

  /// The kind of source this emulator runs, as the table of control commands names them.
  var controlSource: ControlSource { source.kind }

  /// The line speed now: the source's (a client's command, the real receiver's port), else
  /// the configured one.
  var currentBaud: Int { source.currentBaud ?? configuration.pacing.baud }

  /// Epochs that fell due since the start, whether or not anything listened: `status`'s and
  /// `subscribe`'s `epoch`.
  var epochsDue: Int { source.epochsDue }

  /// Whether the source itself is paused (a replay), or nil (see `DeviceSource`).
  var pausedBySource: Bool? { source.pausedBySource }

  /// The fields `status` adds for this kind of source.
  var sourceStatusFields: [(String, ControlReply.Value)] { source.statusExtras }

  /// The log, for the control protocol.
  var controlLog: Log { log }

  /// Counters of what happened on the device, one schema for every source (its transmitter
  /// counts into the device's; the source adds what it alone counts).
  public var statistics: DeviceStatistics {
    var statistics = device.currentStatistics
    source.complete(&statistics)
    return statistics
  }

  /// The configuration the receiver runs on now: its rate and line speed as its saved memory
  /// (`--state-dir`) or a client has set them since the start; the rest as configured.
  public var configurationInEffect: EmulatorConfiguration {
    var current = configuration
    if let loop = liveLoop {
      (current.cadence, current.pacing) = loop.plan.withLock {
        ($0.scheduler.cadence, $0.pacing)
      }
    }
    return current
  }

  /// What a replay's reader met (packets of each kind, problems, packets dropped, loops); nil
  /// for a live receiver or a passthrough. What it sent is in `statistics`.
  public var replayReaderStatistics: ReplayStatistics? {
    replayLoop?.readerStatistics
  }

  /// Why a replay ended before the end of its log (the file could no longer be read), or nil.
  public var replayFailure: InputFileError? {
    replayLoop?.readFailure
  }

  /// Counters of a passthrough (`--passthrough`); nil for an emulated or replayed receiver.
  public var passthroughStatistics: PassthroughRunStatistics? {
    passthroughLoop?.statistics
  }

  /// Replaces what a passed-through receiver's position becomes, from its next bytes on; an
  /// emulated or replayed receiver is left alone.
  public func setOverride(_ override: PositionOverride) {
    passthroughLoop?.setOverride(override)
  }

  /// Stops sending, removes the link while it is still ours, then closes the pseudo-terminal:
  /// in that order, because the kernel hands the terminal's number to the next process at once.
  /// Only the first call does anything.
  public func stop() {
    let before = lifecycle.withLock { lifecycle in
      defer { lifecycle = .stopped }
      return lifecycle
    }
    guard before != .stopped else { return }
    // gpsd lets go of the device before its link goes; it was told only once started.
    if before == .running { gpsdNotifier?.withdraw(log: log) }
    stopControl()
    source.stop()
    network.withLock { $0 }?.stop()
    device.stop()
    chipStateFile?.flush()
    if !link.removeIfStillOurs() {
      log.warning("'\(link.path)' no longer points to \(link.target); left as it is")
    }
    device.close()
    privateRuntime?.stop()
  }

  /// How many times a client opened the device that no client had open, and the receiver's
  /// power-up was queued (a passthrough: how many times a client opened it): a harness waits
  /// for it before stepping.
  package var clientArrivals: Int { source.clientArrivalCount }

  /// How many replies to commands (and power-up sentences) were queued to leave between
  /// sentences: a harness waits for the reply to a command it sent, and the command's other
  /// effects (output, tracking, dialect) are applied by the time it is counted.
  package var repliesQueued: Int {
    liveLoop?.repliesQueued.load(ordering: .acquiring) ?? 0
  }

  /// How many restarts a client ordered (UBX-CFG-RST, PMTK101–104) were applied to the
  /// simulated chip: a harness waits for them as for replies.
  package var restartsApplied: Int {
    liveLoop?.restartsApplied.load(ordering: .acquiring) ?? 0
  }
}
