import Geodesy
import Wire

#if canImport(Glibc)
  import Glibc
#endif

/// Rewrites one UBX frame under an override: positions as `UBXPositionMove` covers them, the
/// heights of NAV-PVT, NAV-POSLLH and NAV-HPPOSLLH wherever their position moves (above mean
/// sea level: the replaced altitude, or the real one; above the ellipsoid: that plus EGM96's
/// geoid separation at the new place; ECEF heights likewise, through `OverrideMapping`), and
/// the velocities of NAV-PVT, NAV-VELNED, NAV-SOL and NAV-VELECEF when the motion is
/// overridden.
///
/// Frames that say there is no fix keep everything as received.
enum UBXOverride {
  /// NAV message IDs that carry a position.
  static let positionIDs: Set<UInt8> = [0x01, 0x02, 0x06, 0x07, 0x13, 0x14]
  /// NAV message IDs that carry a velocity only.
  static let velocityIDs: Set<UInt8> = [0x11, 0x12]

  /// Rewrites the frame; false when nothing changed.
  static func rewrite(
    _ frame: inout UBXFrameBytes, mapping: inout OverrideMapping, motion: OverriddenMotion?
  ) -> Bool {
    guard frame.messageClass == 0x01 else { return false }
    noteGeoidSeparation(frame, in: &mapping)
    var changed = UBXPositionMove.move(&frame, with: &mapping)
    if changed, let place = mapping.lastMove?.to {
      rewriteHeights(
        &frame, altitude: mapping.replacedAltitude,
        separation: OverrideMapping.separation(at: place))
    }
    if let motion, let place = mapping.lastMove?.to {
      changed = overrideVelocity(&frame, motion, at: place) || changed
    }
    return changed
  }

  /// NAV-PVT and NAV-POSLLH give height above the ellipsoid and above mean sea level (mm).
  private static func noteGeoidSeparation(_ frame: UBXFrameBytes, in mapping: inout OverrideMapping)
  {
    let heights: (Int, Int)? =
      switch frame.id {
      case 0x07 where frame.has(32, 8) && frame.u1(20) != 0: (32, 36)
      case 0x02 where frame.has(12, 8): (12, 16)
      default: nil
      }
    if let (height, meanSeaLevel) = heights, frame.i4(height) != 0 || frame.i4(meanSeaLevel) != 0 {
      mapping.geoidSeparationMeters = Double(frame.i4(height) - frame.i4(meanSeaLevel)) / 1000
    }
  }

  /// Height and hMSL (I4 mm; NAV-HPPOSLLH adds I1 parts of 0.1 mm): hMSL becomes `altitude`
  /// when there is one, and height hMSL plus `separation`.
  private static func rewriteHeights(
    _ frame: inout UBXFrameBytes, altitude: Double?, separation: Double
  ) {
    let layout: (height: Int, meanSeaLevel: Int, highPrecision: Int?)? =
      switch frame.id {
      case 0x07 where frame.has(32, 8): (32, 36, nil)
      case 0x02 where frame.has(12, 8): (12, 16, nil)
      case 0x14 where frame.has(16, 12): (16, 20, 26)
      default: nil
      }
    guard let layout else { return }
    let scale: Double = layout.highPrecision == nil ? 1000 : 10_000
    func read(_ offset: Int, _ part: Int?) -> Int64 {
      part.map { frame.i4(offset) * 10 + frame.i1($0) } ?? frame.i4(offset)
    }
    func write(_ offset: Int, _ part: Int?, _ units: Int64) {
      guard let part else { return frame.set(offset, 4, units) }
      let main = units / 10
      frame.set(offset, 4, main)
      frame.set(part, 1, units - main * 10)
    }
    let meanSeaLevelPart = layout.highPrecision.map { $0 + 1 }
    var meanSeaLevel = read(layout.meanSeaLevel, meanSeaLevelPart)
    if let altitude {
      meanSeaLevel = Int64((altitude * scale).rounded())
      write(layout.meanSeaLevel, meanSeaLevelPart, meanSeaLevel)
    }
    write(layout.height, layout.highPrecision, meanSeaLevel + Int64((separation * scale).rounded()))
  }

  /// Velocities from the overridden motion at the overriding place; headings become the
  /// motion's course when it sets one.
  private static func overrideVelocity(
    _ frame: inout UBXFrameBytes, _ motion: OverriddenMotion, at place: GeodeticPosition
  ) -> Bool {
    func local(realHeading: Double) -> (north: Double, east: Double, up: Double) {
      let course = (motion.courseDegrees ?? realHeading) * .pi / 180
      let speed = motion.speedMetersPerSecond
      return (speed * cos(course), speed * sin(course), motion.climbMetersPerSecond)
    }
    func writeNED(at offset: Int, scale: Double, groundSpeed: Int, heading: Int, speed3D: Int?) {
      let v = local(realHeading: Double(frame.i4(heading)) / 1e5)
      frame.set(offset, 4, Int64((v.north * scale).rounded()))
      frame.set(offset + 4, 4, Int64((v.east * scale).rounded()))
      frame.set(offset + 8, 4, Int64((-v.up * scale).rounded()))
      frame.set(groundSpeed, 4, Int64((motion.speedMetersPerSecond * scale).rounded()))
      if let speed3D {
        let total = (motion.speedMetersPerSecond * motion.speedMetersPerSecond + v.up * v.up)
          .squareRoot()
        frame.set(speed3D, 4, Int64((total * scale).rounded()))
      }
      if let course = motion.courseDegrees {
        frame.set(heading, 4, Int64((course * 1e5).rounded()))
      }
    }
    func writeEarthCentered(at offset: Int) {
      let v = local(realHeading: 0)
      let ecef = EarthCenteredConversion.earthCentered(
        east: v.east, north: v.north, up: v.up, at: place)
      for (axis, value) in [ecef.x, ecef.y, ecef.z].enumerated() {
        frame.set(offset + 4 * axis, 4, Int64((value * 100).rounded()))
      }
    }
    switch frame.id {
    case 0x07 where frame.has(48, 20) && frame.u1(20) != 0:
      writeNED(at: 48, scale: 1000, groundSpeed: 60, heading: 64, speed3D: nil)
    case 0x12 where frame.has(4, 24):
      writeNED(at: 4, scale: 100, groundSpeed: 20, heading: 24, speed3D: 16)
    case 0x06 where frame.has(28, 12) && frame.u1(10) != 0:
      writeEarthCentered(at: 28)
    case 0x11 where frame.has(4, 12):
      writeEarthCentered(at: 4)
    default:
      return false
    }
    return true
  }
}
