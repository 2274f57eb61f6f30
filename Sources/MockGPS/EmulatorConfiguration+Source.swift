import Geodesy
import InputFiles
import Receiver
import Replay
import RouteFiles
import Simulation

/// How a route plays.
public struct RoutePlayback: Hashable, Sendable {
  /// How to drive it; nil plays a timed track at its recorded times (an untimed route is then
  /// driven with `DrivingLimits.car`).
  public var limits: DrivingLimits?
  /// Goes round again after the end, through a closing leg back to the first point.
  public var looping: Bool
  /// Moves a timed track in time so that it starts when the emulator does (`--time now`).
  public var startsNow: Bool

  /// Creates a playback.
  public init(limits: DrivingLimits? = nil, looping: Bool = false, startsNow: Bool = false) {
    self.limits = limits
    self.looping = looping
    self.startsNow = startsNow
  }
}

extension EmulatorConfiguration.Source: CustomStringConvertible {
  /// Why a source cannot run.
  public enum SourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The route has no point, its times go back, or the limits are not above zero.
    case undrivableRoute(String)
    /// The log to replay is missing (exit 66) or holds nothing to replay (65).
    case log(InputFileError)
    /// A replayed log sends its own bytes: it has no scene to simulate.
    case notSimulated
    /// `--override MODE` (the first value) needs a source that gives it a position or motion:
    /// the options named by the second.
    case overrideNeedsSource(String, needs: String)

    public var description: String {
      switch self {
      case .undrivableRoute(let reason): return "the route cannot be played: \(reason)"
      case .log(let error): return error.description
      case .notSimulated: return "a replayed log has no scene: it sends its own bytes"
      case .overrideNeedsSource(let mode, let needs): return "--override \(mode) needs \(needs)"
      }
    }
  }

  /// The simulated time the source starts at by itself: a timed track's first time, a
  /// scenario's start; nil when it starts whenever the emulator does.
  public var originalStartTime: UTCInstant? {
    switch self {
    case .fixed, .replay:
      return nil
    case .route(let route, let playback):
      guard playback.limits == nil, !playback.startsNow, route.isTimed else { return nil }
      return route.points.first?.time
    case .scenario(let scenario, let startsNow):
      return startsNow ? nil : scenario.startTime
    }
  }

  /// The seed `makeScene` hands its sky: a scenario's own, else 0.
  var skySeed: UInt64 {
    if case .scenario(let scenario, _) = self { return scenario.seed }
    return 0
  }

  /// The scene and wire faults of the source when simulated time starts at `start`, under the
  /// sky `sky` makes from a seed (a scenario's own, else 0).
  ///
  /// - Throws: `SourceError` for a route that cannot be played.
  public func makeScene(simulatedStart start: UTCInstant, sky: (UInt64) -> any Sky)
    throws(SourceError) -> (Scene, WireFaults)
  {
    switch self {
    case .fixed(let position):
      return (Scene(motion: FixedPosition(position), sky: sky(skySeed)), .none)
    case .route(let route, let playback):
      let motion = try Self.motion(route, playback, start: start)
      return (Scene(motion: motion, sky: sky(skySeed)), .none)
    case .scenario(var scenario, let startsNow):
      if startsNow { scenario = scenario.shifted(toStartAt: start) }
      let compiled = scenario.compiled(sky: sky(skySeed))
      return (compiled.scene, compiled.wireFaults)
    case .replay:
      throw .notSimulated
    }
  }

  private static func motion(_ route: Route, _ playback: RoutePlayback, start: UTCInstant)
    throws(SourceError) -> any Motion
  {
    if playback.limits == nil, route.isTimed, let first = route.points.first?.time {
      let offset = playback.startsNow ? start.nanoseconds(since: first) : 0
      guard
        let track = TrackMotion(
          route: route, timeOffsetNanoseconds: offset, looping: playback.looping)
      else { throw .undrivableRoute("its times go backwards or span more than 292 years") }
      return track
    }
    guard
      let driving = RouteDriving(
        route: route, limits: playback.limits ?? .car, startTime: start,
        looping: playback.looping)
    else { throw .undrivableRoute("no point, or a speed, acceleration or turn rate of zero") }
    return driving
  }

  /// `position 51.477928,-0.001545,46`, `track 'Morning run' of 988 points`, `route of 55
  /// points at 13.9 m/s, looping`, `scenario of 7 events`, `replay of 'drive.log', looping`.
  public var description: String {
    switch self {
    case .fixed(let position):
      return "position \(position)"
    case .route(let route, let playback):
      let name = route.name.map { " '\($0)'" } ?? ""
      let count = "of \(route.points.count) point\(route.points.count == 1 ? "" : "s")"
      let kind =
        playback.limits == nil && route.isTimed
        ? "track\(name) \(count)\(playback.startsNow ? " from now" : "")"
        : "route\(name) \(count) at \((playback.limits ?? .car).speedMetersPerSecond) m/s"
      return kind + (playback.looping ? ", looping" : "")
    case .scenario(let scenario, _):
      return "scenario of \(scenario.timeline.count) events"
    case .replay(let path, let playback):
      return "replay of '\(path)'" + (playback.options.looping ? ", looping" : "")
        + (playback.waitsForClient ? ", from the first client" : "")
    }
  }
}

/// How a log is replayed: the reader's options, and when its timeline starts.
public struct ReplayPlayback: Hashable, Sendable {
  /// The settle time after the first client opens, as gpsfake waits for gpsd: gpsd flushes
  /// the line several times in its first second.
  public static let defaultSettleSeconds = 1.4

  /// `--time`, `--loop`, `--move-to`, `--drop-invalid`.
  public var options: ReplayOptions
  /// True: the timeline starts when the first client opens the device, plus `settleSeconds`
  /// (`--wait-for-client`); false: at the start.
  public var waitsForClient: Bool
  /// Seconds from the first client's open to the start of the timeline (`--settle`).
  public var settleSeconds: Double

  /// Creates a playback; the default starts at once and plays the log once, as recorded.
  public init(
    options: ReplayOptions = ReplayOptions(), waitsForClient: Bool = false,
    settleSeconds: Double = Self.defaultSettleSeconds
  ) {
    self.options = options
    self.waitsForClient = waitsForClient
    self.settleSeconds = settleSeconds
  }
}
