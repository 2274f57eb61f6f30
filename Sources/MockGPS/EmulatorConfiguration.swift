import Geodesy
import Receiver
import Simulation

/// Everything `mockgps run` needs to start one emulated receiver.
public struct EmulatorConfiguration: Hashable, Sendable {
  /// The Royal Observatory, Greenwich: where the emulator stands when no position is given.
  public static let defaultPosition = GeodeticPosition(
    known: 51.477_928, -0.001_545, altitudeMeters: 46)
  /// The device link when none is given.
  public static let defaultLinkPath = "/dev/ttyMOCKGPS"

  public var linkPath: String
  public var position: GeodeticPosition
  public var cadence: CadencePlan
  public var pacing: BytePacing
  /// The slave's group, by name or number; nil leaves the pseudo-terminal's own.
  public var groupName: String?
  /// True when the group was asked for explicitly, so that a missing group is an error.
  public var groupIsExplicit: Bool
  /// The slave's permission bits.
  public var mode: UInt32
  /// How many times as fast as the wall clock simulated time runs (`--time-scale`).
  public var timeScale: Double = 1
  /// The simulated time of the start (`--start-time`); nil starts at the wall clock's now.
  public var startTime: UTCInstant? = nil

  /// Creates a configuration with the defaults of `mockgps run`.
  public init(
    linkPath: String = Self.defaultLinkPath, position: GeodeticPosition = Self.defaultPosition,
    cadence: CadencePlan = .oneHertz,
    pacing: BytePacing = .baud9600, groupName: String? = "dialout",
    groupIsExplicit: Bool = false, mode: UInt32 = 0o660, timeScale: Double = 1,
    startTime: UTCInstant? = nil
  ) {
    self.linkPath = linkPath
    self.position = position
    self.cadence = cadence
    self.pacing = pacing
    self.groupName = groupName
    self.groupIsExplicit = groupIsExplicit
    self.mode = mode
    self.timeScale = timeScale
    self.startTime = startTime
  }
}
