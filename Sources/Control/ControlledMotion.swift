import Geodesy
import Simulation

/// The motion of a receiver under control: the configured motion until the first change, then
/// what the control socket asked for from each change on (`LiveControls` keeps at most the
/// segment in force before the last change and the one after it: epochs are asked for in time
/// order).
public struct ControlledMotion: Motion {
  /// What the receiver does from a change on.
  public enum Segment: Sendable {
    /// A motion (the configured one or a route driven on request) played on a clock: its
    /// state at the clock's time for `time` (pause, seek and `scale` move the clock).
    case follow(any Motion, PlaybackClock)
    /// Standing still in this state (speed and climb 0).
    case hold(MotionState)
    /// From `state.position` at `since`, at `state`'s speed, course and climb along the
    /// geodesic.
    case cruise(MotionState, since: UTCInstant)

    /// The state at `time`.
    func state(at time: UTCInstant) -> MotionState {
      switch self {
      case .follow(let motion, let clock):
        return clock.state(of: motion, at: time)
      case .hold(let state):
        return state
      case .cruise(let start, let since):
        let seconds = Double(time.nanoseconds(since: since)) / 1e9
        guard seconds > 0 else { return start }
        var state = start
        if start.speedMetersPerSecond > 0 {
          state.position =
            Geodesic.wgs84.direct(
              from: start.position, azimuthDegrees: start.courseDegrees,
              distanceMeters: start.speedMetersPerSecond * seconds
            ).position
        }
        state.position.altitudeMeters = min(
          max(start.position.altitudeMeters + start.climbMetersPerSecond * seconds, -1000),
          100_000)
        return state
      }
    }

    /// The receiver time the motion followed ends at; nil for the others.
    var endTime: UTCInstant? {
      guard case .follow(let motion, let clock) = self else { return nil }
      return motion.endTime.map(clock.receiverTime(at:))
    }
  }

  /// The configured motion, played before the first segment.
  public let base: any Motion
  /// The segments and when each starts, in time order.
  public let segments: [(start: UTCInstant, segment: Segment)]

  /// Creates the motion.
  public init(base: any Motion, segments: [(start: UTCInstant, segment: Segment)]) {
    self.base = base
    self.segments = segments
  }

  public func state(at time: UTCInstant) -> MotionState {
    guard let current = segments.last(where: { $0.start <= time }) else {
      return base.state(at: time)
    }
    return current.segment.state(at: time)
  }

  /// The start of the segment in force at `time`: each request starts a stretch, also one that
  /// does not move the receiver (a `dop`, a `fix`), whose second then reports the sky at it.
  public func stretchStart(at time: UTCInstant) -> UTCInstant {
    segments.last(where: { $0.start <= time })?.start ?? base.stretchStart(at: time)
  }

  /// The end of what the last segment follows (a route driven once); nil otherwise.
  public var endTime: UTCInstant? {
    guard let last = segments.last else { return base.endTime }
    return last.segment.endTime
  }
}
