// PLACEHOLDER CONTRACT (issue 11): see ControlRequest.swift.
import Geodesy
import Receiver
import Simulation

/// What the control socket has changed of a simulated receiver, kept apart from the source it
/// was started with and applied over it: position and velocity, pause and seek, fix mode,
/// satellites, DOPs and injected faults. Pure: the emulator asks it for the source to run after
/// each change and swaps it in, so a change takes effect in the next epoch.
public struct LiveControls: Sendable {
  /// The source as configured (`mockgps run` options, a config file's device).
  public private(set) var base: SceneSource

  /// Starts with nothing changed: `source` is `base`.
  public init(base: SceneSource) {
    self.base = base
  }

  /// Applies a request that changes the simulated receiver at simulated time `now` (the time
  /// of the next epoch, or the current simulated time). `status`, `subscribe`, `rate` and
  /// `override` are the emulator's to answer, and `route` comes through `drive(route:…)`:
  /// given here they throw.
  ///
  /// - Throws: a message for the reply when the request cannot apply (nothing is changed).
  public mutating func apply(_ request: ControlRequest, at now: UTCInstant)
    throws(ControlRequestError)
  {
    // PLACEHOLDER: to be written by the owner of Sources/Control.
    throw ControlRequestError(message: "not implemented yet", idJSON: nil)
  }

  /// Drives `route` from `now` on, from where the receiver is (a route file loaded by the
  /// emulator for `{"cmd":"route"}`).
  public mutating func drive(
    route: Route, speedMetersPerSecond: Double?, loops: Bool, at now: UTCInstant
  ) {
    // PLACEHOLDER: to be written by the owner of Sources/Control.
  }

  /// The source to run: `base` with every change applied.
  public var source: SceneSource {
    // PLACEHOLDER: to be written by the owner of Sources/Control.
    base
  }

  /// True while paused.
  public var isPaused: Bool { false }  // PLACEHOLDER
}

/// The fields of a fix in `status` replies and `subscribe` lines: `time` (ISO 8601), `mode`
/// (`none|2d|3d`), `fix` (`none|2d|3d|dgps|rtk-float|rtk-fixed`), `lat`, `lon`, `alt` (MSL),
/// `speed`, `course`, `climb`, `satellites` (used), `visible`, `hdop`, `vdop`, `pdop`.
public enum FixReport {
  public static func fields(of fix: Fix) -> [(String, ControlReply.Value)] {
    // PLACEHOLDER: to be written by the owner of Sources/Control.
    []
  }
}
