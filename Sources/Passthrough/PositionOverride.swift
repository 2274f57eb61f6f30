import Geodesy
import Simulation

/// What a passed-through receiver's position becomes (`--override`).
///
/// Time, satellites, DOPs, fix mode and quality always stay the real receiver's; a message that
/// says it has no fix is never given a position.
public enum PositionOverride: Sendable {
  /// Every byte passes as the receiver sent it.
  case off
  /// Every position is this one; its altitude too when `replacesAltitude`. Speed becomes 0.
  case replace(GeodeticPosition, replacesAltitude: Bool)
  /// The real track moved so that its first fix lands here, keeping the real motion.
  case offsetTo(GeodeticPosition)
  /// The real track moved this many meters north and east, keeping the real motion.
  case offsetBy(northMeters: Double, eastMeters: Double)
  /// Position, speed and course from a motion (a route or scenario) at the time the data
  /// arrives; the altitude stays real.
  case route(any Motion)
  /// The last real fix held (the first one met, when frozen from the start). Speed becomes 0.
  case freeze

  /// `off`, `replace`, `offset`, `route`, `freeze`: the `--override` names.
  public var name: String {
    switch self {
    case .off: return "off"
    case .replace: return "replace"
    case .offsetTo, .offsetBy: return "offset"
    case .route: return "route"
    case .freeze: return "freeze"
    }
  }
}
