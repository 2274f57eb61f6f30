import Geodesy

/// Moves the positions of UBX frames with a `PositionMapping` (a `TrackMover` for `--move-to`,
/// an override's mapping for `--passthrough`), keeping each field's resolution.
///
/// Covered: NAV-PVT and NAV-POSLLH (lon, lat in 1e-7°), NAV-HPPOSLLH (with its 1e-9° parts),
/// NAV-POSECEF and NAV-SOL (ECEF in cm, recomputed from the moved latitude and longitude and
/// the recorded height), NAV-HPPOSECEF (with its 0.1 mm parts), and the ECEF velocities of
/// NAV-SOL and NAV-VELECEF (turned so that speed, course and climb stay as recorded). Heights,
/// NED velocities, headings and accuracies are left as recorded.
///
/// Frames that say there is no fix (NAV-PVT fixType 0, NAV-SOL gpsFix 0, the invalid flags of
/// the high-precision messages), and positions at exactly 0° 0° or the Earth's centre, are left
/// as recorded and do not fix the origin.
package enum UBXPositionMove {
  /// Moves the frame's positions; false when it has none to move.
  package static func move(_ frame: inout UBXFrameBytes, with mover: inout some PositionMapping)
    -> Bool
  {
    guard frame.messageClass == 0x01 else { return false }
    switch frame.id {
    case 0x07:
      guard frame.has(24, 8), frame.u1(20) != 0 else { return false }
      return moveGeodetic(&frame, longitude: 24, latitude: 28, highPrecision: nil, mover: &mover)
    case 0x02:
      guard frame.has(4, 8) else { return false }
      return moveGeodetic(&frame, longitude: 4, latitude: 8, highPrecision: nil, mover: &mover)
    case 0x14:
      guard frame.has(8, 18), frame.u1(3) & 1 == 0 else { return false }
      return moveGeodetic(&frame, longitude: 8, latitude: 12, highPrecision: 24, mover: &mover)
    case 0x01:
      guard frame.has(4, 12) else { return false }
      return moveEarthCentered(&frame, at: 4, highPrecision: nil, velocity: nil, mover: &mover)
    case 0x06:
      guard frame.has(12, 28), frame.u1(10) != 0 else { return false }
      return moveEarthCentered(&frame, at: 12, highPrecision: nil, velocity: 28, mover: &mover)
    case 0x13:
      guard frame.has(8, 16), frame.u1(23) & 1 == 0 else { return false }
      return moveEarthCentered(&frame, at: 8, highPrecision: 20, velocity: nil, mover: &mover)
    case 0x11:
      guard frame.has(4, 12), let last = mover.lastMove else { return false }
      rotateVelocity(&frame, at: 4, from: last.from, to: last.to)
      return true
    default:
      return false
    }
  }

  /// Longitude and latitude (I4, 1e-7°), with I1 parts of 1e-9° at `highPrecision` and the
  /// byte after it.
  private static func moveGeodetic(
    _ frame: inout UBXFrameBytes, longitude: Int, latitude: Int, highPrecision: Int?,
    mover: inout some PositionMapping
  ) -> Bool {
    let scale: Double = highPrecision == nil ? 1e7 : 1e9
    func read(_ offset: Int, _ part: Int?) -> Int64 {
      part.map { frame.i4(offset) * 100 + frame.i1($0) } ?? frame.i4(offset)
    }
    let lonUnits = read(longitude, highPrecision)
    let latUnits = read(latitude, highPrecision.map { $0 + 1 })
    let (lon, lat) = (Double(lonUnits) / scale, Double(latUnits) / scale)
    guard lonUnits != 0 || latUnits != 0, (-90...90).contains(lat), (-180...180).contains(lon)
    else { return false }
    let moved = mover.moved(latitude: lat, longitude: lon)
    func write(_ degrees: Double, _ offset: Int, _ part: Int?) {
      let units = Int64((degrees * scale).rounded())
      guard let part else { return frame.set(offset, 4, units) }
      let main = units / 100
      frame.set(offset, 4, main)
      frame.set(part, 1, units - main * 100)
    }
    write(moved.longitude, longitude, highPrecision)
    write(moved.latitude, latitude, highPrecision.map { $0 + 1 })
    return true
  }

  /// ECEF X, Y, Z (I4, cm) at `offset`, with I1 parts of 0.1 mm at `highPrecision`, and an
  /// ECEF velocity (I4, cm/s) at `velocity`.
  private static func moveEarthCentered(
    _ frame: inout UBXFrameBytes, at offset: Int, highPrecision: Int?, velocity: Int?,
    mover: inout some PositionMapping
  ) -> Bool {
    let scale: Double = highPrecision == nil ? 100 : 10_000
    let units = (0..<3).map { axis in
      highPrecision.map { frame.i4(offset + 4 * axis) * 100 + frame.i1($0 + axis) }
        ?? frame.i4(offset + 4 * axis)
    }
    guard
      let recorded = EarthCenteredConversion.geodetic(
        x: Double(units[0]) / scale, y: Double(units[1]) / scale, z: Double(units[2]) / scale)
    else { return false }
    let moved = mover.moved(latitude: recorded.latitude, longitude: recorded.longitude)
    let point = EarthCenteredPosition(
      latitude: moved.latitude, longitude: moved.longitude,
      heightAboveEllipsoidMeters: mover.movedHeight(recorded.height))
    for (axis, meters) in [point.x, point.y, point.z].enumerated() {
      let newUnits = Int64((meters * scale).rounded())
      if let highPrecision {
        let main = newUnits / 100
        frame.set(offset + 4 * axis, 4, main)
        frame.set(highPrecision + axis, 1, newUnits - main * 100)
      } else {
        frame.set(offset + 4 * axis, 4, newUnits)
      }
    }
    if let velocity {
      rotateVelocity(
        &frame, at: velocity,
        from: GeodeticPosition(known: recorded.latitude, recorded.longitude), to: moved)
    }
    return true
  }

  /// An ECEF velocity (three I4, cm/s) turned from one place to another.
  private static func rotateVelocity(
    _ frame: inout UBXFrameBytes, at offset: Int, from: GeodeticPosition, to: GeodeticPosition
  ) {
    let v = (Double(frame.i4(offset)), Double(frame.i4(offset + 4)), Double(frame.i4(offset + 8)))
    let turned = EarthCenteredConversion.rotated(v, from: from, to: to)
    for (axis, value) in [turned.x, turned.y, turned.z].enumerated() {
      frame.set(offset + 4 * axis, 4, Int64(value.rounded()))
    }
  }
}
