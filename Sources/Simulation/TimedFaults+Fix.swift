import Geodesy

/// What goes wrong with the receiver's solution.
///
/// Fix faults sit between the scene and the encoder: `Scene.fix(at:)` derives the fix from the
/// motion and the sky, then applies its `FixFaults`.
public enum FixFaultKind: Hashable, Sendable {
  /// Which satellites stop being used or seen.
  public enum SatelliteLoss: Hashable, Sendable {
    /// Every satellite goes out of view.
    case all
    /// Only the first `count` used satellites stay used; the others stay in view, unused.
    case keepUsed(Int)
    /// The satellites with these IDs stay in view but are not used.
    case markUnused(Set<Int>)
  }

  /// The mode the receiver reports, at most what the satellites used allow.
  case forceMode(Fix.Mode)
  /// Every DOP multiplied by a factor.
  case scaleDOP(by: Double)
  /// Satellites lost; the mode and DOPs follow from the ones still used.
  case loseSatellites(SatelliteLoss)
  /// The position moved by a fixed offset, meters north, east and up.
  case jump(northMeters: Double, eastMeters: Double, upMeters: Double = 0)
  /// Horizontal position noise: north and east offsets drawn from a normal-like distribution
  /// with this standard deviation, from `seed` and the epoch time only.
  case noise(standardDeviationMeters: Double, seed: UInt64)
}

/// One thing that goes wrong with the receiver's solution, for a time.
public typealias FixFault = TimedFault<FixFaultKind>

/// The fix faults of a scene.
public typealias FixFaults = TimedFaults<FixFaultKind>

/// The fix faults of a scene, applied in a fixed order whatever the order of the list.
///
/// At each epoch only the faults whose window contains the epoch time take part, in these stages
/// (several faults of one stage apply in list order):
/// 1. Satellite loss. The DOPs are computed again from the satellites still used, and the mode
///    can only get worse: 3D needs four used satellites, 2D three, fewer means no fix.
/// 2. DOP scaling.
/// 3. Forced mode. A forced mode can only make the fix worse or keep it, never better than what
///    the satellites used allow (a receiver cannot solve 3D from three satellites). So "no fix"
///    can be forced with every satellite still in view, and 3D with the satellites a scenario
///    chooses by losing the others. Without a fix the DOPs are dropped; the satellites stay.
///    With several forced modes the worst wins.
/// 4. Position jumps, then 5. position noise. Offsets that are not finite are ignored, so the
///    position always stays a valid `GeodeticPosition`.
extension TimedFaults where Kind == FixFaultKind {
  /// The fix with the faults active at its time applied.
  public func apply(to fix: Fix) -> Fix {
    let active = active(at: fix.time)
    guard !active.isEmpty else { return fix }
    var fix = fix
    let losses = active.compactMap { fault -> FixFaultKind.SatelliteLoss? in
      if case .loseSatellites(let loss) = fault.kind { return loss }
      return nil
    }
    if !losses.isEmpty {
      for loss in losses { fix.satellites = Self.satellites(fix.satellites, after: loss) }
      let used = fix.satellitesUsed
      fix.dop = DilutionOfPrecision(directions: used.map { ($0.azimuth, $0.elevation) })
      fix.mode = min(fix.mode, Fix.Mode(satellitesUsedCount: used.count))
    }
    for case .scaleDOP(let factor) in active.map(\.kind) {
      fix.dop = fix.dop.map {
        DilutionOfPrecision(
          position: $0.position * factor, horizontal: $0.horizontal * factor,
          vertical: $0.vertical * factor, time: $0.time * factor)
      }
    }
    for case .forceMode(let mode) in active.map(\.kind) {
      fix.mode = min(fix.mode, mode, Fix.Mode(satellitesUsedCount: fix.satellitesUsed.count))
    }
    if fix.mode == .noFix { fix.dop = nil }
    for case .jump(let north, let east, let up) in active.map(\.kind) {
      fix.position = Self.moved(fix.position, northMeters: north, eastMeters: east)
      if up.isFinite { fix.position.altitudeMeters += up }
    }
    for case .noise(let deviation, let seed) in active.map(\.kind) {
      var generator = FaultRandomNumberGenerator(seed: seed, time: fix.time)
      let north = deviation.magnitude * generator.nextStandardNormal()
      let east = deviation.magnitude * generator.nextStandardNormal()
      fix.position = Self.moved(fix.position, northMeters: north, eastMeters: east)
    }
    return fix
  }

  /// The satellites after a loss, used ones first.
  static func satellites(
    _ satellites: [SatelliteInView], after loss: FixFaultKind.SatelliteLoss
  ) -> [SatelliteInView] {
    var result = satellites
    switch loss {
    case .all:
      return []
    case .keepUsed(let count):
      var kept = 0
      for index in result.indices where result[index].isUsed {
        if kept < count { kept += 1 } else { result[index].isUsed = false }
      }
    case .markUnused(let ids):
      for index in result.indices where ids.contains(result[index].id) {
        result[index].isUsed = false
      }
    }
    return result.filter(\.isUsed) + result.filter { !$0.isUsed }
  }

  /// A position moved north, then east, along great circles; unchanged for offsets that are not
  /// finite.
  static func moved(
    _ position: GeodeticPosition, northMeters: Double, eastMeters: Double
  ) -> GeodeticPosition {
    guard northMeters.isFinite, eastMeters.isFinite else { return position }
    let north = GreatCircle.destination(
      from: position, bearing: northMeters < 0 ? 180 : 0, distance: northMeters.magnitude)
    return GreatCircle.destination(
      from: north, bearing: eastMeters < 0 ? 270 : 90, distance: eastMeters.magnitude)
  }
}
