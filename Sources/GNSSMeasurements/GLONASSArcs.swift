import Geodesy
import Synchronization

/// The GLONASS ephemerides in force and their integrated arcs: each ephemeris built once for
/// its slot and tb, and its states at every integration step from tb, up to a half period
/// either side, computed once; both shared by the engine's copies. A
/// position at any time is then the state at the step before it advanced by one partial step:
/// exactly what integrating from tb gives (`GLONASSEphemeris.motion(atGPSSeconds:)`), for one
/// step's work instead of up to fifteen an epoch and satellite.
final class GLONASSArcs: Sendable {
  /// The arcs by slot and tb, each with the ephemeris it integrates (hashing two numbers
  /// rather than a whole ephemeris); only the latest tb's are kept once there are more than
  /// `capacity`.
  private let arcs = Mutex<
    [EphemerisKey: (ephemeris: GLONASSEphemeris, arc: [GLONASSEphemeris.State])]
  >([:])
  /// The ephemerides by slot and tb, kept as the arcs are.
  private let ephemerides = Mutex<[EphemerisKey: GLONASSEphemeris]>([:])

  /// An ephemeris's slot and tb (GPS seconds).
  struct EphemerisKey: Hashable {
    var slot: Int
    var referenceGPSSeconds: Double
  }

  /// The ephemeris of `slot` for tb `referenceGPSSeconds`, made by `make` the first time.
  func ephemeris(
    slot: Int, referenceGPSSeconds: Double, make: () -> GLONASSEphemeris
  ) -> GLONASSEphemeris {
    let key = EphemerisKey(slot: slot, referenceGPSSeconds: referenceGPSSeconds)
    if let known = ephemerides.withLock({ $0[key] }) { return known }
    let made = make()
    ephemerides.withLock { ephemerides in
      if ephemerides.count >= Self.capacity {
        ephemerides = ephemerides.filter { $0.key.referenceGPSSeconds == referenceGPSSeconds }
      }
      ephemerides[key] = made
    }
    return made
  }
  /// More arcs than two tb's of every slot.
  static let capacity = 64

  /// The states at tb + k × step for k = −steps…steps, where `steps` steps cover the half
  /// period.
  static func arc(of ephemeris: GLONASSEphemeris) -> [GLONASSEphemeris.State] {
    let steps = Int(
      (GLONASSEphemeris.periodSeconds / 2 / GLONASSEphemeris.stepSeconds).rounded(.up))
    let start = GLONASSEphemeris.State(position: ephemeris.position, velocity: ephemeris.velocity)
    var backward = [start]
    var forward = [start]
    for _ in 0..<steps {
      backward.append(
        backward[backward.count - 1].advanced(
          by: -GLONASSEphemeris.stepSeconds, acceleration: ephemeris.acceleration))
      forward.append(
        forward[forward.count - 1].advanced(
          by: GLONASSEphemeris.stepSeconds, acceleration: ephemeris.acceleration))
    }
    return backward.reversed() + forward.dropFirst()
  }

  /// The satellite's position and velocity at `gpsSeconds` by `ephemeris`, from its arc when
  /// within it (integrated from tb otherwise).
  func motion(of ephemeris: GLONASSEphemeris, atGPSSeconds gpsSeconds: Double) -> (
    position: EarthCenteredPosition, velocity: EarthCenteredPosition
  ) {
    let key = EphemerisKey(slot: ephemeris.slot, referenceGPSSeconds: ephemeris.referenceGPSSeconds)
    let states = arcs.withLock { arcs -> [GLONASSEphemeris.State] in
      if let known = arcs[key], known.ephemeris == ephemeris { return known.arc }
      let arc = Self.arc(of: ephemeris)
      if arcs.count >= Self.capacity {
        arcs = arcs.filter { $0.key.referenceGPSSeconds == ephemeris.referenceGPSSeconds }
      }
      arcs[key] = (ephemeris, arc)
      return arc
    }
    // The state after the whole steps, as `motion(atGPSSeconds:)` takes them, then the rest.
    let middle = (states.count - 1) / 2
    let steps = ephemeris.steps(to: gpsSeconds)
    guard abs(steps.whole) <= middle else { return ephemeris.motion(atGPSSeconds: gpsSeconds) }
    return states[middle + steps.whole].finished(
      by: steps.partialSeconds, acceleration: ephemeris.acceleration)
  }
}
