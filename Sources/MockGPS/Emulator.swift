import Geodesy
import Receiver
import Simulation
import SystemIO

/// One running emulated receiver: a pseudo-terminal published under a stable link, fed with
/// NMEA epochs from a scene.
///
/// Use it from tests or a rig to change the position at run time without restarting anything.
public final class Emulator: Sendable {
  /// What it was started with.
  public let configuration: EmulatorConfiguration
  /// The pseudo-terminal and its clients.
  public let device: SerialDevice
  /// The published device name and the slave it points to.
  public let link: DeviceLink
  private let loop: EpochLoop
  private let log: Log

  /// Why the emulator could not start.
  public enum StartError: Error, CustomStringConvertible {
    case link(DeviceLink.CreationError)
    case system(SystemError)
    case unknownGroup(String)

    public var description: String {
      switch self {
      case .link(let error): return error.description
      case .system(let error): return error.description
      case .unknownGroup(let name): return "no group '\(name)' on this system"
      }
    }

    /// A suggestion for the person, or nil.
    public var hint: String? {
      if case .link(let error) = self { return error.hint }
      return nil
    }
  }

  /// Opens the pseudo-terminal, publishes the link and gives the slave the group and mode of a
  /// serial port. Call `start()` to begin sending.
  public init(
    configuration: EmulatorConfiguration, log: Log,
    commandHandler: (any ReceiverCommandHandler)? = nil
  ) throws(StartError) {
    self.configuration = configuration
    self.log = log
    let device: SerialDevice
    do {
      device = try SerialDevice(
        baud: configuration.pacing.baud, log: log,
        handler: commandHandler ?? LoggingCommandHandler(log: log))
    } catch {
      throw .system(error)
    }
    do {
      link = try DeviceLink.create(
        at: configuration.linkPath, pointingTo: device.terminal.slavePath)
    } catch {
      device.close()
      throw .link(error)
    }
    do {
      try Self.setPermissions(of: device.terminal, configuration, log)
    } catch {
      link.removeIfStillOurs()
      device.close()
      throw error
    }
    self.device = device
    let linkGuard = LinkGuard(link: link, log: log)
    do {
      loop = try EpochLoop(
        cadence: configuration.cadence, pacing: configuration.pacing, encoder: EpochEncoder(),
        device: device, scene: Scene(motion: FixedPosition(configuration.position)),
        afterEpoch: { linkGuard.checkIfDue(now: $0) })
    } catch {
      link.removeIfStillOurs()
      device.close()
      throw .system(error)
    }
  }

  private static func setPermissions(
    of terminal: PseudoTerminal, _ configuration: EmulatorConfiguration, _ log: Log
  ) throws(StartError) {
    var groupID: UInt32?
    if let name = configuration.groupName {
      groupID = Groups.groupID(named: name)
      if groupID == nil {
        if configuration.groupIsExplicit { throw .unknownGroup(name) }
        log.warning("no group '\(name)' on this system; the device keeps the group 'tty'")
      }
    }
    do {
      try terminal.setPermissions(groupID: groupID, mode: configuration.mode)
    } catch {
      log.warning("\(error); clients may need to run as this user")
    }
  }

  /// A warning when one epoch does not fit in the period at the configured baud, else nil.
  public var budgetWarning: String? {
    let fix = loop.scene.withLock { $0.fix(at: SystemUTCClock().now()) }
    let bytes = loop.encoder.bytes(for: fix).count
    return EpochBudget(
      bytesPerEpoch: bytes, pacing: configuration.pacing, cadence: configuration.cadence
    ).warning
  }

  /// Starts reading from clients and sending epochs.
  ///
  /// - Throws: `SystemError` when a thread cannot be started.
  public func start() throws(SystemError) {
    try device.start()
    try loop.start()
  }

  /// Moves the receiver to a new fixed position from the next epoch on.
  public func setPosition(_ position: GeodeticPosition) {
    loop.scene.withLock { $0.motion = FixedPosition(position) }
  }

  /// Replaces the scene (motion, sky) from the next epoch on.
  public func setScene(_ scene: Scene) {
    loop.scene.withLock { $0 = scene }
  }

  /// Counters of what happened on the device.
  public var statistics: DeviceStatistics { device.currentStatistics }

  /// Stops sending, removes the link while it is still ours, then closes the pseudo-terminal:
  /// in that order, because the kernel hands the terminal's number to the next process at once.
  public func stop() {
    loop.stop()
    if !link.removeIfStillOurs() {
      log.warning("'\(link.path)' no longer points to \(link.target); left as it is")
    }
    device.stop()
    device.close()
  }
}
