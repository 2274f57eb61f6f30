import Simulation

/// Where a followed motion (a route or scenario) is in its own time at a receiver time: it
/// reads `motionAnchor` at `anchor` and advances `scale` seconds of its own per second from
/// there. Pause, seek and `scale` each move the anchors, so that the motion goes on from where
/// it was (no jump) or from where it was sent.
public struct PlaybackClock: Hashable, Sendable {
  /// The receiver time the anchors were last set at.
  public var anchor: UTCInstant
  /// The motion's own time at `anchor`.
  public var motionAnchor: UTCInstant
  /// The motion's seconds per receiver second (`scale`): 1 plays it as recorded.
  public var scale: Double

  /// The smallest and largest `scale` accepted.
  public static let scales: ClosedRange<Double> = 0.1...100

  /// A clock playing the motion as recorded from its own start: its time is the receiver's.
  public static let realTime = PlaybackClock(
    anchor: UTCInstant(nanosecondsSinceEpoch: 0),
    motionAnchor: UTCInstant(nanosecondsSinceEpoch: 0),
    scale: 1)

  /// Creates a clock.
  public init(anchor: UTCInstant, motionAnchor: UTCInstant, scale: Double) {
    self.anchor = anchor
    self.motionAnchor = motionAnchor
    self.scale = scale
  }

  /// The motion's time at receiver time `time` (exact in nanoseconds at scale 1).
  public func motionTime(at time: UTCInstant) -> UTCInstant {
    let elapsed = time.nanoseconds(since: anchor)
    if scale == 1 { return motionAnchor.adding(nanoseconds: elapsed) }
    return motionAnchor.adding(nanoseconds: UTCInstant.clampedNanoseconds(Double(elapsed) * scale))
  }

  /// The receiver time at which the motion reaches its own time `motionTime`.
  public func receiverTime(at motionTime: UTCInstant) -> UTCInstant {
    let ahead = motionTime.nanoseconds(since: motionAnchor)
    if scale == 1 { return anchor.adding(nanoseconds: ahead) }
    return anchor.adding(nanoseconds: UTCInstant.clampedNanoseconds(Double(ahead) / scale))
  }

  /// This clock from `time` on, reading there what it reads now and running at `scale`.
  public func rescaled(_ scale: Double, at time: UTCInstant) -> PlaybackClock {
    PlaybackClock(anchor: time, motionAnchor: motionTime(at: time), scale: scale)
  }

  /// The motion's state at receiver time `time`: where it is in its own time, its speed and
  /// climb as fast as it moves (`scale` times its own).
  func state(of motion: any Motion, at time: UTCInstant) -> MotionState {
    var state = motion.state(at: motionTime(at: time))
    if scale != 1 {
      state.speedMetersPerSecond *= scale
      state.climbMetersPerSecond *= scale
    }
    return state
  }
}
