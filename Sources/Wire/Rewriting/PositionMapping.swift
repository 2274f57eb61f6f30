import Geodesy

/// Where a real or recorded position goes: the one question that `NMEASentenceRewriter`'s
/// position pass and `UBXPositionMove` ask, so that they serve both `--move-to` (a
/// `TrackMover`) and a passed-through receiver's overrides.
package protocol PositionMapping {
  /// Where a position (degrees, in range) goes.
  mutating func moved(latitude: Double, longitude: Double) -> GeodeticPosition

  /// The last position moved, before and after: an ECEF velocity reported without a position
  /// (NAV-VELECEF) is turned by it.
  var lastMove: (from: GeodeticPosition, to: GeodeticPosition)? { get }

  /// The height above the ellipsoid (meters) an ECEF position gets, given the one it had.
  func movedHeight(_ realHeight: Double) -> Double
}

extension PositionMapping {
  /// Heights stay as they are.
  package func movedHeight(_ realHeight: Double) -> Double { realHeight }
}
