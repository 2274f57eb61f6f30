import Geodesy

/// A motion moved by an antenna's offset on the vehicle: the same speed, course and climb, the
/// position shifted along the course (forward is north while the course is 0, as when standing
/// at a fixed position).
public struct OffsetAntennaMotion: Motion {
  public var vehicle: any Motion
  public var offset: AntennaOffset

  /// The antenna at `offset` on the vehicle that `vehicle` moves.
  public init(_ vehicle: any Motion, offset: AntennaOffset) {
    self.vehicle = vehicle
    self.offset = offset
  }

  public func state(at time: UTCInstant) -> MotionState {
    var state = vehicle.state(at: time)
    state.position = offset.antenna(at: state.position, courseDegrees: state.courseDegrees)
    return state
  }

  public var endTime: UTCInstant? { vehicle.endTime }
  public func stretchStart(at time: UTCInstant) -> UTCInstant { vehicle.stretchStart(at: time) }
}
