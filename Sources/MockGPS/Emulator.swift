import Geodesy
import Glibc
import Receiver
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
  private let loop: EpochLoop
  private let log: Log
  private let lifecycle = Mutex(Lifecycle.created)

  /// Why the emulator could not start.
  public enum StartError: Error, CustomStringConvertible {
    case link(DeviceLink.CreationError)
    case system(SystemError)
    case unknownGroup(String)
    /// The rate and the time scale would send more epochs a second than the wire allows.
    case tooFast(WireRateLimit.TooFastError)
    /// The route or scenario cannot be played.
    case source(EmulatorConfiguration.Source.SourceError)

    public var description: String {
      switch self {
      case .link(let error): return error.description
      case .system(let error): return error.description
      case .unknownGroup(let name): return "no group '\(name)' on this system"
      case .tooFast(let error): return error.description
      case .source(let error): return error.description
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
  /// time scale beyond `WireRateLimit` are refused before anything is opened.
  ///
  /// Client messages go to `commandHandler`, by default the profile's chip; either way each is
  /// logged at debug level. The profile's power-up sentences go out each time a client opens
  /// the device that no client had open, before the next epoch: as a USB receiver powers up
  /// when it is plugged in, and so that the client sees them (nothing is sent with no client).
  public init(
    configuration: EmulatorConfiguration, log: Log,
    commandHandler: (any ReceiverCommandHandler)? = nil, clock: any UTCClock = SystemUTCClock()
  ) throws(StartError) {
    do {
      try WireRateLimit.check(configuration.cadence, timeScale: configuration.timeScale)
    } catch {
      throw .tooFast(error)
    }
    // The source before anything is opened: a route that cannot play touches no device.
    let time = SimulatedTime(
      start: configuration.startTime ?? configuration.source.originalStartTime,
      scale: configuration.timeScale, wireNow: clock.now())
    let source: SceneSource
    do {
      source = try configuration.makeEpochSource(simulatedStart: time.simulatedOrigin)
    } catch {
      throw .source(error)
    }
    self.configuration = configuration
    self.log = log
    let running = Mutex<EpochLoop?>(nil)
    let powerUp = configuration.profile.powerUpSentences
    let device: SerialDevice
    do {
      device = try SerialDevice(
        baud: configuration.pacing.baud, log: log,
        handler: LoggingCommandHandler(
          log: log,
          chip: commandHandler
            ?? configuration.profile.makeCommandHandler(
              baud: configuration.pacing.baud,
              periodMilliseconds: Int(configuration.cadence.periodNanoseconds / 1_000_000))),
        effects: { effects in running.withLock { $0?.apply(effects) } },
        firstClientArrived: { running.withLock { $0?.powerUp(powerUp) } })
    } catch {
      throw .system(error)
    }
    do {
      link = try Self.publish(device, at: configuration.linkPath)
    } catch {
      device.close()
      throw error
    }
    do {
      try Self.setPermissions(of: device, configuration, log)
    } catch {
      link.removeIfStillOurs()
      device.close()
      throw error
    }
    self.device = device
    let linkGuard = LinkGuard(link: link, log: log)
    let plan = EpochLoop.Plan(
      scheduler: EpochScheduler(
        cadence: configuration.cadence, timeScale: configuration.timeScale),
      pacing: configuration.pacing, source: source, time: time)
    do {
      loop = try EpochLoop(
        plan: plan, device: device, log: log, clock: clock,
        afterEpoch: { linkGuard.checkIfDue(now: $0) })
    } catch {
      link.removeIfStillOurs()
      device.close()
      throw .system(error)
    }
    running.withLock { $0 = loop }
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

  private static func setPermissions(
    of device: SerialDevice, _ configuration: EmulatorConfiguration, _ log: Log
  ) throws(StartError) {
    var groupID: UInt32?
    if let name = configuration.groupName {
      groupID = Groups.groupID(named: name)
      if groupID == nil { throw .unknownGroup(name) }
    }
    do {
      try device.setPermissions(groupID: groupID, mode: configuration.mode)
    } catch {
      log.warning("\(error); clients may need to run as this user")
    }
  }

  /// A warning when one epoch does not fit in the period at the configured baud, else nil.
  ///
  /// The time scale changes nothing here: it shortens the period and the line time alike.
  public var budgetWarning: String? {
    let (source, time) = loop.plan.withLock { ($0.source, $0.time) }
    let bytes = source.epoch(at: time.simulated(atWire: SystemUTCClock().now())).byteCount
    return EpochBudget(
      bytesPerEpoch: bytes, pacing: configuration.pacing, cadence: configuration.cadence
    ).warning
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
    try device.start()
    try loop.start()
  }

  /// Moves the receiver to a new fixed position from the next epoch on.
  public func setPosition(_ position: GeodeticPosition) {
    updateScene { $0.motion = FixedPosition(position) }
  }

  /// Replaces the scene (motion, sky, faults) from the next epoch on.
  public func setScene(_ scene: Scene) {
    updateScene { $0 = scene }
  }

  /// Replaces the source of the epochs from the next epoch on.
  public func setSource(_ source: any EpochSource) {
    loop.plan.withLock { $0.source = source }
  }

  /// Changes the scene of a scene source from the next epoch on; other sources are left alone.
  private func updateScene(_ change: (inout Scene) -> Void) {
    loop.plan.withLock { plan in
      guard var source = plan.source as? SceneSource else { return }
      change(&source.scene)
      plan.source = source
    }
  }

  /// True once the source has played to its end: an epoch at or after its `endTime` was sent.
  /// The emulator goes on sending (the source decides what) until it is stopped.
  public var isFinished: Bool { loop.finished.isSet }

  /// Runs `action` once, when the source has played to its end (see `isFinished`): on the
  /// epoch thread, or at once on the calling thread when it already has. Keep it short, and do
  /// not stop the emulator from it: wake the thread that will.
  public func onFinished(_ action: @escaping @Sendable () -> Void) {
    loop.finished.whenSet(action)
  }

  /// Waits until the clients have read what was sent, or `milliseconds` have passed, so that a
  /// run that ends by itself (`--once`) does not take its last epoch away with the device.
  /// Returns whether everything was read.
  @discardableResult
  public func waitUntilClientsHaveRead(milliseconds: Int) -> Bool {
    let deadline = SystemClock.monotonicNanoseconds() + Int64(milliseconds) * 1_000_000
    // Bytes written to the master reach the slave's queue a moment later (the kernel pushes
    // them from a work queue), so an empty queue is only believed after a pause.
    repeat {
      usleep(20_000)
      if device.unreadByteCount == 0 { return true }
    } while SystemClock.monotonicNanoseconds() < deadline
    return false
  }

  /// Counters of what happened on the device.
  public var statistics: DeviceStatistics { device.currentStatistics }

  /// Stops sending, removes the link while it is still ours, then closes the pseudo-terminal:
  /// in that order, because the kernel hands the terminal's number to the next process at once.
  /// Only the first call does anything.
  public func stop() {
    let stopping = lifecycle.withLock { lifecycle in
      defer { lifecycle = .stopped }
      return lifecycle != .stopped
    }
    guard stopping else { return }
    loop.stop()
    device.stop()
    if !link.removeIfStillOurs() {
      log.warning("'\(link.path)' no longer points to \(link.target); left as it is")
    }
    device.close()
  }
}
